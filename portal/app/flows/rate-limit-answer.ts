import { isRouteErrorResponse } from "react-router";
import type { Translator } from "../i18n/translator.ts";
import { waitText } from "./wait-text.ts";

/**
 * The portal's answer when the identity service refused a call with 429 (Ory Network's project
 * and endpoint rate limits): the wait in seconds when the service said it, else null ("try
 * again in a moment"). The portal never retries by itself: the person decides when.
 */
export interface RateLimited {
  retryAfterSeconds: number | null;
}

/** The rate limit carried by a page's action data or route error, if any. */
export function rateLimitOf(value: unknown): RateLimited | undefined {
  const source: unknown = isRouteErrorResponse(value) ? value.data : value;
  if (!isObject(source) || !isObject(source.rateLimited)) return undefined;
  const seconds = source.rateLimited.retryAfterSeconds;
  return { retryAfterSeconds: typeof seconds === "number" ? seconds : null };
}

/** What the person typed, sent back with a rate-limited action's answer (no secrets). */
export function rateLimitedValues(value: unknown): Record<string, string> | undefined {
  if (rateLimitOf(value) === undefined || !isObject(value) || !isObject(value.values)) {
    return undefined;
  }
  const values: Record<string, string> = {};
  for (const [name, text] of Object.entries(value.values)) {
    if (typeof text === "string") values[name] = text;
  }
  return values;
}

/** "… Try again in 3 minutes." or, without a usable wait, "… Try again in a moment." */
export function rateLimitText(translator: Translator, limited: RateLimited): string {
  const seconds = limited.retryAfterSeconds;
  return seconds === null
    ? translator.t("rateLimited.moment")
    : translator.t("rateLimited.wait", { wait: waitText(translator, seconds) });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
