import { setTimeout as sleep } from "node:timers/promises";
import { TOTP } from "otpauth";

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
 * Authenticator-app codes for one secret: each call returns the code of a step the identity
 * service has not seen yet and accepts now. A third code within one 30-second window waits for
 * the clock (the only event a TOTP step has) instead of offering an old step the service refuses.
 */
export function authenticatorApp(secret: string): () => Promise<string> {
  const totp = new TOTP({ secret, digits: 6, period: totpPeriodSeconds, algorithm: "SHA1" });
  let lastUsed: number | undefined;
  return async () => {
    let step = nextStep(stepAt(Date.now()), lastUsed);
    while (step === undefined) {
      await sleep(250);
      step = nextStep(stepAt(Date.now()), lastUsed);
    }
    lastUsed = step;
    return totp.generate({ timestamp: step * totpPeriodSeconds * 1000 });
  };
}
