// `npm run test:stress`: the e2e suite with two CPU-bound busy processes beside it, each test
// twice (--repeat-each=2), with budgets scaled for the contention (E2E_TIMEOUT_SCALE). The busy
// processes are this script's children: they stop when the suite ends, when this script is
// interrupted, and in any case on their own after a bounded time.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const busyProcesses = 2;
/** The longest a busy process may run, should this script die without stopping it. */
const busyLimitMs = 45 * 60_000;
/** Two busy cores beside the suite make it about this much slower (measured on 2 cores). */
const defaultScale = "2.5";

const busyLoop = `const end = Date.now() + ${busyLimitMs}; while (Date.now() < end) {}`;
const busy: ChildProcess[] = [];
for (let index = 0; index < busyProcesses; index += 1) {
  busy.push(spawn(process.execPath, ["-e", busyLoop], { stdio: "ignore" }));
}

function stopBusy(): void {
  for (const child of busy) if (child.exitCode === null) child.kill("SIGKILL");
}
process.on("exit", stopBusy);

const startedAt = performance.now();
const suite = spawn(
  "npx",
  [
    "playwright",
    "test",
    "-c",
    "e2e/playwright.config.ts",
    "--repeat-each=2",
    ...process.argv.slice(2),
  ],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, E2E_TIMEOUT_SCALE: process.env.E2E_TIMEOUT_SCALE ?? defaultScale },
  },
);

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    // The exit code is set and the children stopped; the script ends once they have gone.
    process.exitCode = 130;
    suite.kill(signal);
    stopBusy();
  });
}

suite.on("exit", (code, signal) => {
  stopBusy();
  const minutes = ((performance.now() - startedAt) / 60_000).toFixed(1);
  console.log(`test:stress: e2e with ${busyProcesses} busy processes took ${minutes} min`);
  process.exitCode ??= code ?? (signal ? 1 : 0);
});
