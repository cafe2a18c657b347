import { z } from "zod";
import { parseDuration } from "./duration.ts";

// The kinds of value the identity server's environment variables hold, shared by every config
// module (identity, OAuth2, CORS, rate limits, listeners) so that a flag, port or URL is read and
// refused the same way, with the same message, whichever variable it is.

/** `true`/`false`/`1`/`0`, any case. */
export const flag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => ["true", "false", "1", "0"].includes(value), "must be true or false")
  .transform((value) => value === "true" || value === "1");

/** A TCP port; 0 lets the system choose one (tests). */
export const port = z.coerce.number().int().min(0).max(65535);

/** An absolute http:// or https:// URL, trimmed. */
export const httpUrl = z
  .string()
  .trim()
  .refine(
    (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
    "must be an absolute http(s) URL",
  );

/** A limiter's budget: a count of events, 0 turning the limit off. */
export const limitCount = z.coerce
  .number({ message: "must be a whole number (0 turns the limit off)" })
  .int("must be a whole number (0 turns the limit off)")
  .min(0, "must be 0 (off) or more")
  .max(1_000_000, "must be at most 1000000");

/**
 * A Go-style duration ("1h30m", as Kratos and Hydra take them) in milliseconds. `accepts` bounds
 * it; a refused value reads `"<value>" is not <described>`, e.g. "a positive duration like 15m".
 */
export function duration(accepts: (ms: number) => boolean, described: string) {
  return z
    .string()
    .trim()
    .transform((value, ctx) => {
      const ms = parseDuration(value);
      if (ms === undefined || !accepts(ms)) {
        ctx.addIssue({ code: "custom", message: `"${value}" is not ${described}` });
        return z.NEVER;
      }
      return ms;
    });
}

/** Longer than zero: lifespans, windows, timeouts. */
export const positive = (ms: number): boolean => ms > 0;

/** A comma-separated list; blanks around entries and empty entries are dropped. */
export function commaList(value: string): string[] {
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

/**
 * A variable holding JSON: malformed JSON is one issue saying `malformed`; `read` checks the
 * parsed value, adding its own issues to `ctx` (and answering `z.NEVER`) when it is wrong.
 */
export function jsonValue<T>(malformed: string, read: (json: unknown, ctx: z.RefinementCtx) => T) {
  return z.string().transform((value, ctx) => {
    let json: unknown;
    try {
      json = JSON.parse(value);
    } catch {
      ctx.addIssue({ code: "custom", message: malformed });
      return z.NEVER;
    }
    return read(json, ctx);
  });
}
