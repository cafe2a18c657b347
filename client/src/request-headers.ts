import type { FetchParams, Middleware, RequestContext } from "@ory/client-fetch";

/** Where the client reports problems it works around (a fingerprint that could not be read). */
export interface ClientLogger {
  warn(message: string, error?: unknown): void;
}

/** Reads the browser fingerprint sent as `x-session-entropy`; undefined when there is none. */
export type FingerprintGetter = () => string | undefined | Promise<string | undefined>;

type HeaderMap = Record<string, string>;

/** The request's headers as a plain object (the SDK builds one; overrides may pass Headers). */
function headersOf(init: RequestInit): HeaderMap {
  const headers = init.headers;
  if (headers === undefined) return {};
  if (headers instanceof Headers || Array.isArray(headers)) {
    return Object.fromEntries(new Headers(headers).entries());
  }
  const out: HeaderMap = {};
  for (const [key, value] of Object.entries(headers)) if (value !== undefined) out[key] = value;
  return out;
}

function hasHeader(headers: HeaderMap, name: string): boolean {
  return Object.entries(headers).some(([key, value]) => key.toLowerCase() === name && value !== "");
}

function withoutHeader(headers: HeaderMap, name: string): HeaderMap {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name));
}

/**
 * The two headers spec §7 puts on every request: `x-correlation-id` (a fresh UUID unless the
 * request already has one) and `x-session-entropy` (the fingerprint, when the getter yields one;
 * a getter that fails is logged and the request goes out without it).
 */
export function requestHeadersMiddleware(options: {
  fingerprint?: FingerprintGetter | undefined;
  logger: ClientLogger;
}): Middleware {
  return {
    async pre(context: RequestContext): Promise<FetchParams> {
      let headers = headersOf(context.init);
      if (!hasHeader(headers, "x-correlation-id")) {
        headers = {
          ...withoutHeader(headers, "x-correlation-id"),
          "x-correlation-id": crypto.randomUUID(),
        };
      }
      if (options.fingerprint) {
        try {
          const value = await options.fingerprint();
          if (value)
            headers = {
              ...withoutHeader(headers, "x-session-entropy"),
              "x-session-entropy": value,
            };
        } catch (error) {
          options.logger.warn(
            "Could not read the browser fingerprint; sending the request without it.",
            error,
          );
        }
      }
      return { url: context.url, init: { ...context.init, headers } };
    },
  };
}
