import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { IdentityCall, IdentityCallObserver } from "./identity-calls.ts";

/**
 * The portal's Prometheus metrics, in a registry of their own (served by metrics-listener.server.ts
 * on a loopback port, never on the public one). Every label value comes from a small fixed set:
 * route patterns, never paths with ids or queries, so that no request can add series.
 */
export interface PortalMetrics extends IdentityCallObserver {
  registry: Registry;
  /** One answered request: `route` is a pattern such as `/:lang/login` or a fixed category. */
  request(method: string, route: string, status: number, seconds: number): void;
}

const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

// Page renders take tens to hundreds of milliseconds; the identity service answers in a few.
const requestBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createPortalMetrics(): PortalMetrics {
  const registry = new Registry();
  // Event-loop lag, resident memory, heap, GC, handles: prom-client's standard names
  // (nodejs_eventloop_lag_seconds, process_resident_memory_bytes …) that dashboards expect.
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: "portal_http_requests_total",
    help: "Requests the portal answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: "portal_http_request_duration_seconds",
    help: "Time from a request's arrival until its answer was sent, by method, route pattern and status.",
    labelNames: ["method", "route", "status"],
    buckets: requestBuckets,
    registers: [registry],
  });
  const identitySeconds = new Histogram({
    name: "portal_identity_request_duration_seconds",
    help: "Calls to the identity service (pages' own, and the /api/kratos proxy's), by endpoint and status (`none`: no answer).",
    labelNames: ["endpoint", "status"],
    buckets: requestBuckets,
    registers: [registry],
  });
  const identityFailures = new Counter({
    name: "portal_identity_request_failures_total",
    help: "Calls to the identity service that got no answer (`no_answer`: refused, reset, timed out) or a 5xx (`server_error`).",
    labelNames: ["endpoint", "reason"],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: "portal_identity_rate_limited_total",
    help: "Calls the identity service refused with 429 (its rate limits), which the browser was shown as such.",
    labelNames: ["endpoint"],
    registers: [registry],
  });

  return {
    registry,
    request(method, route, status, seconds) {
      const labels = {
        method: knownMethods.has(method) ? method : "other",
        route,
        status: String(status),
      };
      requests.inc(labels);
      requestSeconds.observe(labels, seconds);
    },
    observe(call: IdentityCall) {
      const endpoint = identityEndpoint(call);
      identitySeconds.observe({ endpoint, status: String(call.status ?? "none") }, call.seconds);
      if (call.status === undefined) identityFailures.inc({ endpoint, reason: "no_answer" });
      else if (call.status >= 500) identityFailures.inc({ endpoint, reason: "server_error" });
      else if (call.status === 429) rateLimited.inc({ endpoint });
    },
  };
}

// A flow, session or identity id, a token, a code: anything with a digit that is 16+ long.
const idLike = /^(?=.*\d)[\w-]{16,}$/;

/**
 * The endpoint label of a call: the pages' paths are the portal's own (a fixed set once ids are
 * taken out); the proxy passes whatever path a browser asked for, so it is one label.
 */
export function identityEndpoint({ source, path }: Pick<IdentityCall, "source" | "path">): string {
  if (source === "proxy") return "/api/kratos/*";
  return path
    .split("/")
    .map((segment) => (idLike.test(segment) ? ":id" : segment))
    .join("/");
}
