// Helpers the probes share (whoami-probe.ts, login-probe.ts).
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { repoRoot } from "./processes.ts";

// Fields of /proc/<pid>/stat after the command name: [11] user time, [12] system time (ticks).
function statFields(pid: number): string[] {
  return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
}

/** CPU time (user + system, ms) the process has used so far (Linux /proc; 10 ms ticks). */
export function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The part of `cpuMs` spent in the kernel (system time: syscalls such as socket writes, reads). */
export function systemCpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  return Number(statFields(pid)[12]) * 10;
}

/**
 * CPU time (ms) by kind of thread: the main (event-loop) thread, libuv's pool (argon2id and
 * scrypt run there, one hash per core), and the rest (V8's GC and compiler helpers). The main
 * thread's share is what a request costs beyond the hash, without the contention of the hash.
 */
export function threadCpuMs(pid: number | undefined): {
  main: number;
  pool: number;
  other: number;
} {
  const out = { main: 0, pool: 0, other: 0 };
  if (pid === undefined) return out;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let onCpuNs: string;
    let comm: string;
    try {
      // schedstat's first field: nanoseconds on a CPU (stat's are 10 ms ticks, too coarse here).
      onCpuNs = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0] ?? "0";
      comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
    } catch {
      continue; // the thread ended meanwhile
    }
    const ms = Number(onCpuNs) / 1e6;
    if (tid === String(pid)) out.main += ms;
    else if (comm === "libuv-worker") out.pool += ms;
    else out.other += ms;
  }
  return out;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Self time per function (callFrame name + url + line), top 40, from a .cpuprofile. */
export function printTopSelfTime(file: string): void {
  const profile = JSON.parse(readFileSync(file, "utf8")) as {
    nodes: {
      id: number;
      callFrame: { functionName: string; url: string; lineNumber: number };
    }[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const byUrl = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^.*node_modules\//, "").replace(`file://${repoRoot}`, "");
    const key = `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + delta);
    const file = where || `(${functionName})`;
    byUrl.set(file, (byUrl.get(file) ?? 0) + delta);
    total += delta;
  });
  const top = (map: Map<string, number>, count: number) => {
    for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      console.log(`  ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${key}`);
    }
  };
  console.log(`\n${file}: top self time (${(total / 1e6).toFixed(1)} s sampled)`);
  top(self, 40);
  console.log(`\nself time by file`);
  top(byUrl, 25);
}

/** The top self time of the newest .cpuprofile the server wrote into `dir` (`--cpu-prof-dir`). */
export function printNewestProfile(dir: string): void {
  const file = readdirSync(dir)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => path.join(dir, name))
    .sort()
    .at(-1);
  if (file) printTopSelfTime(file);
}
