import type { ServerOptions } from "node:http";

/** How long a connection may take to send a request, and stay open idle between requests. */
export interface ListenerLimits {
  /** From the connection's (or the previous response's) start until the request's headers arrived. */
  headersTimeoutMs: number;
  /** Until the whole request, body included, arrived. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open for the next request. */
  keepAliveTimeoutMs: number;
}

/** The defaults of IDENTITY_HTTP_*_TIMEOUT (config/listener-config.ts). */
export const defaultListenerLimits: ListenerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

/** Node's own default, written down so that it cannot change under us: larger headers get 431. */
const maxHeaderBytes = 16 * 1024;

/**
 * Options for `http.createServer`. Node enforces the two request timeouts only when it sweeps its
 * connections (every 30 s by default), so a slow client would get up to 30 s more than allowed:
 * the sweep runs four times per headers timeout, at least every second and at most every 100 ms.
 * A timed-out request gets 408 through the listener's `clientError` handler.
 */
export function nodeListenerOptions(limits: ListenerLimits): ServerOptions {
  return {
    maxHeaderSize: maxHeaderBytes,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.max(100, limits.headersTimeoutMs / 4)),
  };
}

/**
 * The same for a Fastify instance: Fastify passes `http` to `http.createServer` but then sets the
 * request and keep-alive timeouts from its own options (by default none and 72 s).
 */
export function fastifyListenerOptions(limits: ListenerLimits) {
  return {
    http: nodeListenerOptions(limits),
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
  };
}
