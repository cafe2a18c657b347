import { createIdentityClient } from "@portal/client";
import type { IdentityClient } from "@portal/client";
import type { RouterContextProvider } from "react-router";
import { getConfig } from "../config.server.ts";
import type { Locale } from "../i18n/locales.ts";
import { observedFetch } from "./identity-calls.ts";
import { rateLimitedFetch } from "./rate-limited.server.ts";
import { requestInfoContext } from "./request-context.ts";
import { sessionEntropy, sessionEntropyName } from "./session-entropy.server.ts";

const correlationIdPattern = /^[\w.:-]{1,128}$/;
// W3C Trace Context: version-traceid-parentid-flags, lower-case hex; tracestate is list-members
// of printable characters, at most 512 of them (what the spec says a vendor may cut it to).
const traceparentPattern = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;
const tracestatePattern = /^[\x20-\x7e]{1,512}$/;

/**
 * Headers a loader or action forwards to the identity service so that it sees the browser:
 * its cookies (CSRF + session), its User-Agent and address, and the request's correlation id.
 * The browser's fingerprint goes as x-session-entropy (trusted devices are bound to it).
 * The page's locale goes as Accept-Language: the courier writes recovery and verification
 * messages in the language of the request that created the flow. A well-formed W3C `traceparent`
 * (and `tracestate`) goes on as it came, so the identity service's spans join the caller's trace;
 * with the portal's own tracing on, its request span's context goes instead (a child of it).
 */
export function forwardedHeaders(
  request: Request,
  context: Readonly<RouterContextProvider>,
  locale?: Locale,
): Record<string, string> {
  const info = context.get(requestInfoContext);
  const headers: Record<string, string> = {
    "x-correlation-id": info.correlationId ?? incomingCorrelationId(request) ?? crypto.randomUUID(),
  };
  const cookie = request.headers.get("cookie");
  if (cookie) headers.Cookie = cookie;
  const userAgent = request.headers.get("user-agent");
  if (userAgent) headers["User-Agent"] = userAgent;
  if (info.forwardedFor) headers["X-Forwarded-For"] = info.forwardedFor;
  const entropy = sessionEntropy(request);
  if (entropy) headers[sessionEntropyName] = entropy;
  if (locale) headers["Accept-Language"] = locale;
  if (info.traceHeaders) return { ...headers, ...info.traceHeaders };
  const traceparent = request.headers.get("traceparent");
  if (traceparent !== null && traceparentPattern.test(traceparent)) {
    headers.traceparent = traceparent;
    const tracestate = request.headers.get("tracestate");
    if (tracestate !== null && tracestatePattern.test(tracestate)) headers.tracestate = tracestate;
  }
  return headers;
}

function incomingCorrelationId(request: Request): string | undefined {
  const value = request.headers.get("x-correlation-id");
  return value !== null && correlationIdPattern.test(value) ? value : undefined;
}

/**
 * An identity-service client acting for the browser that sent `request`. A 429 of any call is
 * thrown as the portal's rate-limit answer (rate-limited.server.ts).
 */
export function identityFor(
  request: Request,
  context: Readonly<RouterContextProvider>,
  locale?: Locale,
): IdentityClient {
  // Looked up at call time, so tests can stub the global fetch.
  const plainFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);
  const { identityCalls } = context.get(requestInfoContext);
  return createIdentityClient({
    basePath: getConfig().identityPublicUrl,
    headers: forwardedHeaders(request, context, locale),
    // Timed as the service answered (a 429 included), before it becomes the rate-limit page.
    fetchApi: rateLimitedFetch(
      identityCalls ? observedFetch(identityCalls, plainFetch) : plainFetch,
    ),
  });
}
