// Loaded into every server by the memory probes (NODE_OPTIONS=--import): once a second, appends
// this process's process.memoryUsage() and the physical size of each V8 heap space (new, old,
// code, large objects…) as a JSON line to $MEMORY_PROBE_DIR/<folder>-<pid>.jsonl. Plain
// JavaScript so that loading it strips no types.
import { appendFileSync } from "node:fs";
import path from "node:path";
import { getHeapSpaceStatistics } from "node:v8";

const dir = process.env.MEMORY_PROBE_DIR;
if (dir) {
  const file = path.join(dir, `${path.basename(process.cwd())}-${process.pid}.jsonl`);
  const timer = setInterval(() => {
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics()
        .filter((space) => space.physical_space_size > 0)
        .map((space) => [space.space_name, space.physical_space_size]),
    );
    appendFileSync(
      file,
      `${JSON.stringify({ t: Date.now(), ...process.memoryUsage(), spaces })}\n`,
    );
  }, 1000);
  timer.unref();
}
