import type { FastifyInstance } from "fastify";
import type { IdentityMetrics } from "../../metrics/identity-metrics.ts";
import { registerMetricsRoutes, registerRequestMetrics } from "../../metrics/metrics-routes.ts";
import type { Tracing } from "../../tracing/tracing.ts";
import { traceFastify } from "../../tracing/tracing-hooks.ts";
import type { SigningKeyRing } from "../crypto/signing-key-ring.ts";
import { registerAdminHealthRoutes } from "../health.ts";
import type { AdminDeps } from "./admin-deps.ts";
import { registerClientRoutes } from "./client-routes.ts";
import { registerKeyRoutes } from "./key-routes.ts";
import { registerRequestRoutes } from "./request-routes.ts";
import { registerSessionRoutes } from "./session-routes.ts";
import { registerTokenRoutes } from "./token-routes.ts";
import { registerTrustRoutes } from "./trust-routes.ts";

export interface AdminRouteOptions {
  keyRing: SigningKeyRing;
  metrics: IdentityMetrics;
  tracing: Tracing | undefined;
  /** Readiness answers 503 while the public listener drains. */
  isDraining: () => boolean;
}

/** Everything the admin listener serves: Hydra's admin API, health, metrics, traced and counted. */
export function registerAdminRoutes(
  app: FastifyInstance,
  deps: AdminDeps,
  options: AdminRouteOptions,
): void {
  if (options.tracing) traceFastify(app, options.tracing, "oauth2-admin");
  registerRequestMetrics(app, options.metrics, "oauth2-admin");
  registerAdminHealthRoutes(app, deps.db, options.isDraining);
  registerMetricsRoutes(app, options.metrics);
  registerClientRoutes(app, deps);
  registerRequestRoutes(app, deps);
  registerSessionRoutes(app, deps);
  registerTokenRoutes(app, deps);
  registerTrustRoutes(app, deps);
  registerKeyRoutes(app, options.keyRing, deps.issuer);
}
