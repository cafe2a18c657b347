// The machine's load average at the bench's start and end, and the rule that decides whether the
// run's ratios mean anything (bench/README.md, "Reading the numbers"). A ratio compares two
// figures measured seconds apart; other work on the machine during either side moves it.
import { readdirSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";

export interface LoadReading {
  /** The kernel's 1-, 5- and 15-minute load averages (/proc/loadavg). */
  load1: number;
  load5: number;
  load15: number;
  /**
   * The bench's own share of the 1-minute figure: its processes' runnable threads, averaged as the
   * kernel averages the load (see {@link OwnLoad}).
   */
  own: number;
}

export interface LoadVerdict {
  cores: number;
  start: LoadReading;
  end: LoadReading;
  /** The larger of start and end: 1-minute load average minus the bench's own share. */
  others: number;
  /** Busy above this: {@link busyShare} × cores. */
  limit: number;
  busy: boolean;
}

/** Other work worth more than half the cores makes a run's ratios meaningless. */
const busyShare = 0.5;

/**
 * The rule: the machine was busy when, at the start or at the end of the run, the 1-minute load
 * average beyond the bench's own processes exceeded half the cores.
 */
export function judgeLoad(cores: number, start: LoadReading, end: LoadReading): LoadVerdict {
  const others = Math.max(0, start.load1 - start.own, end.load1 - end.own);
  const limit = busyShare * cores;
  return { cores, start, end, others: round2(others), limit, busy: others > limit };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export const describeLoad = (r: LoadReading): string =>
  `${r.load1.toFixed(2)} / ${r.load5.toFixed(2)} / ${r.load15.toFixed(2)} (bench's own ${r.own.toFixed(2)})`;

/** The one-line statement the bench prints and the report carries. */
export function loadStatement(v: LoadVerdict): string {
  const rule = `1-min load beyond the bench's own > ${v.limit.toFixed(1)} (${busyShare} × ${v.cores} cores)`;
  return v.busy
    ? `The machine was busy (other work ${v.others.toFixed(2)}; ${rule}): the ratios of this run are not meaningful and are not judged.`
    : `The machine was quiet enough (other work ${v.others.toFixed(2)}; busy means ${rule}).`;
}

/** The kernel samples the load every 5 s and decays it with a 1-minute time constant. */
const decaySeconds = 60;
const sampleMs = 1000;

/**
 * The bench's own contribution to the 1-minute load average. The kernel counts threads that are
 * runnable or in uninterruptible sleep (states R and D); this counts the same states among the
 * threads of the bench's process tree (itself, start-all, the servers, autocannon, Chromium) once
 * a second and averages them exactly as the kernel does. The thread that reads /proc is always
 * running while it reads, so the bench's main thread counts by its CPU share since the last
 * sample instead.
 */
export class OwnLoad {
  private average = 0;
  private last = performance.now();
  private lastMainCpu = mainThreadCpuSeconds();
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => this.sample(), sampleMs);
    this.timer.unref();
  }

  private sample(): void {
    const now = performance.now();
    const seconds = (now - this.last) / 1000;
    if (seconds <= 0) return;
    const mainCpu = mainThreadCpuSeconds();
    const mainShare = Math.min(1, (mainCpu - this.lastMainCpu) / seconds);
    const active = activeThreads(process.pid) + mainShare;
    const decay = Math.exp(-seconds / decaySeconds);
    this.average = this.average * decay + active * (1 - decay);
    this.last = now;
    this.lastMainCpu = mainCpu;
  }

  /** The load average now, with the bench's own share as averaged so far. */
  reading(): LoadReading {
    this.sample();
    const [load1 = 0, load5 = 0, load15 = 0] = loadavg();
    return { load1, load5, load15, own: round2(this.average) };
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

export const coreCount = (): number => cpus().length;

const ticksPerSecond = 100; // USER_HZ, 100 on every Linux the bench runs on

/** Fields of /proc/<pid>/task/<tid>/stat after the command name (which may hold spaces). */
function statFields(file: string): string[] | undefined {
  try {
    const text = readFileSync(file, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined; // the thread or process has gone
  }
}

function mainThreadCpuSeconds(): number {
  const fields = statFields(`/proc/${process.pid}/task/${process.pid}/stat`);
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the name.
  return fields ? (Number(fields[11]) + Number(fields[12])) / ticksPerSecond : 0;
}

const listing = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** Runnable or uninterruptible threads in the process tree under `root`, its main thread aside. */
function activeThreads(root: number): number {
  let count = 0;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop() ?? 0;
    for (const tid of listing(`/proc/${pid}/task`)) {
      const task = `/proc/${pid}/task/${tid}`;
      if (!(pid === root && Number(tid) === root)) {
        const state = statFields(`${task}/stat`)?.[0];
        if (state === "R" || state === "D") count++;
      }
      try {
        const children = readFileSync(`${task}/children`, "utf8").trim();
        if (children) pending.push(...children.split(/\s+/).map(Number));
      } catch {
        // the thread has gone
      }
    }
  }
  return count;
}
