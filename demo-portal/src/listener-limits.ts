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

/** Node's own default, written down so that it cannot change under us: larger headers get 431. */
const maxHeaderBytes = 16 * 1024;

/**
 * Fastify options for the listener. Fastify passes `http` to `http.createServer` but then sets the
 * request and keep-alive timeouts from its own options (by default none and 72 s). Node enforces
 * the request timeouts only when it sweeps its connections (every 30 s by default): the sweep
 * runs four times per headers timeout, at least every second and at most every 100 ms.
 */
export function fastifyListenerOptions(limits: ListenerLimits) {
  const http: ServerOptions = {
    maxHeaderSize: maxHeaderBytes,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.max(100, limits.headersTimeoutMs / 4)),
  };
  return {
    http,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
  };
}
