// Loaded into the identity server by whoami-probe (PROBE_HEAP_PROF, NODE_OPTIONS=--import): the
// first SIGUSR2 starts V8's sampling heap profiler, counting objects the young- and old-generation
// collectors freed too (so the profile is the garbage a request makes, not only what it keeps);
// the second writes $HEAP_SAMPLE_FILE (a .heapprofile) with the scavenges seen in between.
// Plain JavaScript so that loading it strips no types.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { PerformanceObserver, constants } from "node:perf_hooks";

const file = process.env.HEAP_SAMPLE_FILE;
if (file) {
  const session = new Session();
  session.connect();
  let sampling = false;
  let scavenges = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges++;
  });
  process.on("SIGUSR2", () => {
    if (!sampling) {
      sampling = true;
      scavenges = 0;
      gc.observe({ entryTypes: ["gc"] });
      session.post("HeapProfiler.startSampling", {
        samplingInterval: 256,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      return;
    }
    sampling = false;
    gc.disconnect();
    session.post("HeapProfiler.stopSampling", (error, result) => {
      if (error) throw error;
      writeFileSync(file, JSON.stringify({ scavenges, ...result.profile }));
    });
  });
}
