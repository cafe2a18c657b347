import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";

/**
 * How much slower than an idle 2-core machine this run may be: every time budget of the e2e
 * suite (test and expect timeouts, the timed stack's limits) is multiplied by it, so a busy
 * machine gets proportionally more time instead of a guessed constant.
 *
 * E2E_TIMEOUT_SCALE sets it (a number from 1 to 10; `npm run test:stress` sets it). Unset, it is
 * measured once from the load the machine carries as the suite starts: 1 on an idle machine, plus
 * the other runnable processes per core, at most 4. The runnable count is sampled for about a
 * second (Linux' /proc/loadavg "running" field), not read from the 1-minute load average: in
 * `npm test` the suite starts right after Vitest, whose load would linger in that average for
 * minutes and stretch the idle-timeout tests of an idle machine three- or fourfold.
 * The runner writes the value back to the environment, so its workers, which load this module
 * again, use the same number.
 */
const scaleVariable = "E2E_TIMEOUT_SCALE";

export function parseScale(raw: string): number {
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || value < 1 || value > 10) {
    throw new Error(`${scaleVariable} must be a number from 1 to 10, got "${raw}"`);
  }
  return value;
}

export function measuredScale(load1: number, cores: number): number {
  const scale = 1 + Math.max(0, load1) / Math.max(1, cores);
  return Math.min(4, Math.round(scale * 10) / 10);
}

/** The "running" field of /proc/loadavg ("1/88" → 1), or undefined when unreadable. */
export function runnableNow(procLoadavg: string): number | undefined {
  const match = /^\S+ \S+ \S+ (\d+)\/\d+/.exec(procLoadavg);
  return match ? Number(match[1]) : undefined;
}

const samples = 20;
const sampleGapMs = 50;

/**
 * Processes runnable beside this one, averaged over `samples` readings about a second apart in
 * all; the 1-minute load average where /proc/loadavg cannot be read (not Linux).
 */
function currentLoad(): number {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let total = 0;
  for (let index = 0; index < samples; index += 1) {
    let running: number | undefined;
    try {
      running = runnableNow(readFileSync("/proc/loadavg", "utf8"));
    } catch {
      running = undefined;
    }
    if (running === undefined) return loadavg()[0] ?? 0;
    // This process is running while it reads the file: it is not load of its own.
    total += Math.max(0, running - 1);
    // A synchronous pause between readings: the scale must be known when this module loads.
    Atomics.wait(pause, 0, 0, sampleGapMs);
  }
  return total / samples;
}

function resolveScale(): number {
  const raw = process.env[scaleVariable];
  if (raw !== undefined) return parseScale(raw);
  const scale = measuredScale(currentLoad(), availableParallelism());
  process.env[scaleVariable] = String(scale);
  return scale;
}

export const timeScale = resolveScale();

/** A budget in milliseconds for an idle 2-core machine, scaled to this one. */
export function scaled(milliseconds: number): number {
  return Math.round(milliseconds * timeScale);
}
