import type { IncomingMessage, ServerResponse } from "node:http";
import { createProxyMiddleware } from "http-proxy-middleware";
import { proxiedEntropy } from "../session/proxied-entropy.server.ts";
import { bufferedBody } from "./body-limit.server.ts";
import type { IdentityCallObserver } from "./identity-calls.ts";
import { identityError } from "./identity-error-body.server.ts";
import { sessionEntropyName } from "./session-entropy.server.ts";
import type { TraceHeaders } from "./tracing.server.ts";
import { clientAddress } from "./trusted-proxies.server.ts";

interface IdentityProxyOptions {
  /** The identity service's public URL. */
  target: string;
  /** The request's correlation id (set by the request log), passed on to the identity service. */
  correlationId: (res: ServerResponse) => string | undefined;
  /** Told of each proxied call's status and latency, when metrics are on. */
  metrics: IdentityCallObserver | undefined;
  /** The request span's `traceparent`/`tracestate` (tracing on), sent instead of the browser's. */
  traceHeaders?: (res: ServerResponse) => TraceHeaders | undefined;
}

/**
 * The passthrough by which the browser reaches the identity service (cookies both ways), mounted
 * at /api/kratos: the browser's address, fingerprint and already-read body go on; an unreachable
 * service answers 502 in its own error shape.
 */
export function identityProxy({
  target,
  correlationId,
  metrics,
  traceHeaders,
}: IdentityProxyOptions) {
  /** When each proxied call to the identity service left, for its latency. */
  const proxyStarted = new WeakMap<IncomingMessage, number>();

  /** One proxied call to the identity service: its answer's status, or none. */
  function observeProxied(req: IncomingMessage, status: number | undefined): void {
    const started = proxyStarted.get(req);
    if (!metrics || started === undefined) return;
    proxyStarted.delete(req);
    metrics.observe({
      source: "proxy",
      path: "",
      status,
      seconds: (performance.now() - started) / 1000,
    });
  }

  return createProxyMiddleware<IncomingMessage, ServerResponse>({
    target,
    changeOrigin: true,
    xfwd: true,
    on: {
      proxyReq: (proxyReq, req, res) => {
        proxyStarted.set(req, performance.now());
        const id = correlationId(res);
        if (id) proxyReq.setHeader("x-correlation-id", id);
        // Tracing on: the identity service's span is a child of the portal's, not the browser's.
        const trace = traceHeaders?.(res);
        if (trace) {
          proxyReq.setHeader("traceparent", trace.traceparent);
          proxyReq.removeHeader("tracestate");
          if (trace.tracestate) proxyReq.setHeader("tracestate", trace.tracestate);
        }
        // The browser's address as the pages send it (req.ip, by PORTAL_TRUSTED_PROXIES), not the
        // whole chain: the identity service trusts only the portal, so it would take the load
        // balancer in front of the portal for the browser.
        const ip = clientAddress(req);
        if (ip) proxyReq.setHeader("x-forwarded-for", ip);
        // The browser's fingerprint (its cookie, when no header) goes on as the header (spec §7).
        const entropy = proxiedEntropy(req.headers);
        proxyReq.removeHeader(sessionEntropyName);
        if (entropy) proxyReq.setHeader(sessionEntropyName, entropy);
        // limitBodies read the body already: it goes on whole, with its length.
        const body = bufferedBody(req);
        if (body) {
          proxyReq.removeHeader("transfer-encoding");
          proxyReq.setHeader("content-length", body.length);
          proxyReq.write(body);
        }
      },
      proxyRes: (proxyRes, req) => observeProxied(req, proxyRes.statusCode),
      // The identity service unreachable or gone mid-answer: a 502 in its own error shape.
      error: (_error, req, res) => {
        observeProxied(req, undefined);
        if (!("setHeader" in res) || res.headersSent) {
          res.destroy();
          return;
        }
        res.statusCode = 502;
        res.setHeader("Content-Type", "application/json");
        res.end(JSON.stringify(identityError(502, "The identity service did not answer.")));
      },
    },
  });
}
