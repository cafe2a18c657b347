import type { FastifyInstance } from "fastify";
import type { IdentityMetrics, Listener } from "./identity-metrics.ts";

/**
 * Kratos and Hydra serve Prometheus' text on their admin routers at `/metrics/prometheus`, which
 * their admin prefix also answers as `/admin/metrics/prometheus`. Behind the admin token when one
 * is configured, like every other admin route but the health checks.
 */
const metricsPaths = ["/metrics/prometheus", "/admin/metrics/prometheus"];

export function registerMetricsRoutes(app: FastifyInstance, metrics: IdentityMetrics): void {
  for (const path of metricsPaths) {
    app.get(path, async (_request, reply) => {
      const text = await metrics.registry.metrics();
      return reply
        .header("content-type", metrics.registry.contentType)
        .header("cache-control", "no-store")
        .send(text);
    });
  }
}

/**
 * Counts every answer of a Fastify listener by its route pattern (`/admin/identities/:id`, never
 * the path itself); requests no route matched are one `unmatched` label.
 */
export function registerRequestMetrics(
  app: FastifyInstance,
  metrics: IdentityMetrics,
  listener: Listener,
): void {
  // Callback style: an async hook costs a promise per request.
  app.addHook("onResponse", (request, reply, done) => {
    const route = request.routeOptions.url ?? "unmatched";
    metrics.request(listener, request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
