import { readFileSync } from "node:fs";

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM), or 0 once the process is gone. */
export function statusBytes(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
    return match?.[1] ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples the RSS of processes every 500 ms; `peak()` is the highest sample since the last reset. */
export class RssSampler {
  private readonly peaks = new Map<string, number>();
  private readonly allTime = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  private readonly pids: Record<string, number>;

  constructor(pids: Record<string, number>) {
    this.pids = pids;
    this.timer = setInterval(() => this.sample(), 500);
    this.timer.unref();
    this.sample();
  }

  private sample(): void {
    for (const [name, pid] of Object.entries(this.pids)) {
      const rss = statusBytes(pid, "VmRSS");
      this.peaks.set(name, Math.max(this.peaks.get(name) ?? 0, rss));
      this.allTime.set(name, Math.max(this.allTime.get(name) ?? 0, rss));
    }
  }

  reset(): void {
    this.peaks.clear();
    this.sample();
  }

  /** Peak sampled RSS per process, in bytes. */
  peak(): Record<string, number> {
    this.sample();
    return Object.fromEntries(this.peaks);
  }

  /** Peak sampled RSS per process since the sampler started, in bytes. */
  peakSinceStart(): Record<string, number> {
    this.sample();
    return Object.fromEntries(this.allTime);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
