import type { RateLimited } from "../flows/rate-limit-answer.ts";

/** Longest wait taken at its word; anything beyond is shown as "in a moment". */
const longestWaitSeconds = 24 * 3600;

/**
 * The wait a 429 asks for: `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3),
 * else Ory Network's `x-ratelimit-reset` (seconds until the window resets). Missing, garbage,
 * past or absurd values give undefined.
 */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter) return plausible(delaySeconds(retryAfter) ?? dateSeconds(retryAfter, now));
  const reset = headers.get("x-ratelimit-reset")?.trim();
  return reset ? plausible(delaySeconds(reset)) : undefined;
}

function delaySeconds(text: string): number | undefined {
  return /^\d{1,10}$/.test(text) ? Number(text) : undefined;
}

function dateSeconds(text: string, now: number): number | undefined {
  // Only the HTTP date shapes (e.g. "Wed, 21 Oct 2026 07:28:00 GMT"), not whatever Date takes.
  if (!/^[A-Za-z]{3},? [\w -]+ \d{2}:\d{2}:\d{2} GMT$/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.ceil((at - now) / 1000);
}

function plausible(seconds: number | undefined): number | undefined {
  return seconds !== undefined && seconds > 0 && seconds <= longestWaitSeconds
    ? seconds
    : undefined;
}

/** The 429 a loader throws for the page (its JSON becomes the route error's data), with Retry-After. */
function rateLimitedResponse(seconds: number | undefined): Response {
  const body: { rateLimited: RateLimited } = {
    rateLimited: { retryAfterSeconds: seconds ?? null },
  };
  const headers: Record<string, string> =
    seconds === undefined ? {} : { "Retry-After": `${seconds}` };
  return Response.json(body, { status: 429, headers });
}

/** Whether a thrown value is a {@link rateLimitedResponse}. */
export function isRateLimitedResponse(value: unknown): value is Response {
  return value instanceof Response && value.status === 429;
}

/**
 * A fetch for the identity-service client that turns a 429 into a thrown {@link rateLimitedResponse}.
 * The SDK passes thrown non-Error values through unchanged, so every call (create, get, submit,
 * whoami, logout …) in every loader and action ends the same way, without a branch of its own:
 * a loader's page becomes the rate-limit page (status 429); an action keeps its form
 * (keep-form-when-rate-limited.server.ts). The body (Ory's `{"error":{…}}` JSON or its edge's plain
 * text) is not needed: the wait is in the headers.
 */
export function rateLimitedFetch(fetchApi: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const response = await fetchApi(input, init);
    if (response.status !== 429) return response;
    await response.body?.cancel();
    // A Response, deliberately not an Error (see above).
    throw rateLimitedResponse(retryAfterSeconds(response.headers));
  };
}
