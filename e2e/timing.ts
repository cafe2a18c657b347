import { availableParallelism, loadavg } from "node:os";

/**
 * How much slower than an idle 2-core machine this run may be: every time budget of the e2e
 * suite (test and expect timeouts, the timed stack's limits) is multiplied by it, so a busy
 * machine gets proportionally more time instead of a guessed constant.
 *
 * E2E_TIMEOUT_SCALE sets it (a number from 1 to 10; `npm run test:stress` sets it). Unset, it is
 * measured once from the load the machine already carries before the suite starts: 1 on an
 * idle machine, plus the runnable processes per core (the 1-minute load average), at most 4.
 * The runner writes the value back to the environment, so its workers, which load this module
 * again, use the same number.
 */
export const scaleVariable = "E2E_TIMEOUT_SCALE";

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

function resolveScale(): number {
  const raw = process.env[scaleVariable];
  if (raw !== undefined) return parseScale(raw);
  const scale = measuredScale(loadavg()[0] ?? 0, availableParallelism());
  process.env[scaleVariable] = String(scale);
  return scale;
}

export const timeScale = resolveScale();

/** A budget in milliseconds for an idle 2-core machine, scaled to this one. */
export function scaled(milliseconds: number): number {
  return Math.round(milliseconds * timeScale);
}
