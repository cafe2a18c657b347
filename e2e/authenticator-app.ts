import { setTimeout as sleep } from "node:timers/promises";
import { TOTP } from "otpauth";
import { scaled } from "./timing.ts";

/** Seconds per TOTP step, as the identity service's keys use (Kratos' default). */
export const totpPeriodSeconds = 30;

/** The 30-second step a moment falls into (the TOTP counter). */
export function stepAt(milliseconds: number): number {
  return Math.floor(milliseconds / 1000 / totpPeriodSeconds);
}

/**
 * The step the next code should be for. The identity service accepts the current step or one
 * either side, and only a step newer than the last one it accepted for the identity (a code, and
 * any older one, works once; identity-server/src/store/totp-steps.ts). So the next code is for
 * the current step, or for the step after the last one used when that is newer. Undefined while
 * that step is more than one step ahead of the clock: it would be refused as too new.
 */
export function nextStep(now: number, lastUsed: number | undefined): number | undefined {
  const step = lastUsed === undefined ? now : Math.max(now, lastUsed + 1);
  return step <= now + 1 ? step : undefined;
}

/**
 * The step of a first code: the previous one while the current window has at least `marginMs`
 * left, so that the code is still within the service's one step of drift when it arrives; else
 * the current one. Starting one step back leaves three steps (previous, current, next) to use at
 * once: a journey's third code does not wait up to 30 s for the clock.
 */
export function firstStep(now: number, marginMs: number): number {
  const step = stepAt(now);
  const left = (step + 1) * totpPeriodSeconds * 1000 - now;
  return left >= marginMs ? step - 1 : step;
}

/**
 * Authenticator-app codes for one secret: each call returns the code of a step the identity
 * service has not seen yet and accepts now. A fourth code within one 30-second window waits for
 * the clock (the only event a TOTP step has) instead of offering an old step the service refuses.
 * `marginMs` is how long a first code may take to reach the service (filled, sent, checked).
 */
export function authenticatorApp(
  secret: string,
  marginMs: number = scaled(10_000),
): () => Promise<string> {
  const totp = new TOTP({ secret, digits: 6, period: totpPeriodSeconds, algorithm: "SHA1" });
  let lastUsed: number | undefined;
  return async () => {
    if (lastUsed === undefined) {
      lastUsed = firstStep(Date.now(), marginMs);
      return totp.generate({ timestamp: lastUsed * totpPeriodSeconds * 1000 });
    }
    let step = nextStep(stepAt(Date.now()), lastUsed);
    while (step === undefined) {
      await sleep(250);
      step = nextStep(stepAt(Date.now()), lastUsed);
    }
    lastUsed = step;
    return totp.generate({ timestamp: step * totpPeriodSeconds * 1000 });
  };
}
