// Loaded into every server by `npm run memory-probe -w bench` (NODE_OPTIONS=--import): once a
// second, appends this process's process.memoryUsage() as a JSON line to
// $MEMORY_PROBE_DIR/<folder>.jsonl. Plain JavaScript so that loading it strips no types.
import { appendFileSync } from "node:fs";
import path from "node:path";

const dir = process.env.MEMORY_PROBE_DIR;
if (dir) {
  const file = path.join(dir, `${path.basename(process.cwd())}-${process.pid}.jsonl`);
  const timer = setInterval(() => {
    appendFileSync(file, `${JSON.stringify({ t: Date.now(), ...process.memoryUsage() })}\n`);
  }, 1000);
  timer.unref();
}
