// `node bench/src/usable-only.ts`: only the usable-time figures (usable-figures.ts), on a system of
// their own, for working on the sign-in page's first paint without the whole bench (about 8 min).
// Prints the rows, the sign-in page's server time (server-time.ts) and the load average;
// BENCH_USABLE_RUNS sets the cold loads per side.
import { describeLoad, OwnLoad } from "./machine-load.ts";
import { printTable } from "./report.ts";
import { serverTimeFigures, serverTimeRows } from "./server-time.ts";
import { startSystem } from "./system.ts";
import { usableFigures, usableRows } from "./usable-figures.ts";

const load = new OwnLoad();
const start = load.reading();
const system = await startSystem();
try {
  const figures = await usableFigures();
  printTable([...usableRows(figures), ...serverTimeRows(await serverTimeFigures())]);
  console.log(
    `Load average (1 / 5 / 15 min) at start ${describeLoad(start)}, at end ${describeLoad(load.reading())}.`,
  );
} finally {
  load.stop();
  await system.stop();
}
