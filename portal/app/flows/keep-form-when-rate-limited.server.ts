import { data } from "react-router";
import { isRateLimitedResponse, retryAfterSeconds } from "../http/rate-limited.server.ts";
import type { RateLimited } from "./rate-limit-answer.ts";

/** What a flow page's action answers when the identity service refused its call with 429. */
interface RateLimitedActionData {
  rateLimited: RateLimited;
  /** What the person typed (no passwords, no CSRF token), to fill the form in again. */
  values: Record<string, string>;
}

/** Fields never sent back to the page: secrets, and what the page's flow already holds. */
const neverEchoed = /password|csrf_token|^method$|^lookup_secret$|^totp_code$/;

/**
 * Runs a flow page's action; when the identity service is rate-limited (rate-limited.server.ts
 * throws its 429), the action answers 429 with the wait and the typed values instead, so the page
 * stays as it was, with its form, and says how long to wait (FlowMessages, FlowForm). Nothing is
 * retried. Other errors go on as before.
 */
export async function keepFormWhenRateLimited<T>(
  request: Request,
  submit: () => Promise<T>,
): Promise<T | ReturnType<typeof data<RateLimitedActionData>>> {
  // The action reads the body; the copy is read only when the wait is shown.
  const copy = request.clone();
  try {
    return await submit();
  } catch (error) {
    if (!isRateLimitedResponse(error)) throw error;
    const seconds = retryAfterSeconds(error.headers);
    const values: Record<string, string> = {};
    for (const [name, value] of await copy.formData()) {
      if (typeof value === "string" && !neverEchoed.test(name)) values[name] = value;
    }
    return data(
      { rateLimited: { retryAfterSeconds: seconds ?? null }, values },
      { status: 429, headers: seconds === undefined ? {} : { "Retry-After": `${seconds}` } },
    );
  }
}
