import type { Server } from "node:http";
import type { IdentityMetrics, Listener } from "./identity-metrics.ts";

/** Hydra's public paths (oidc-provider mounted at the root): the only route labels it gets. */
const oauth2PublicRoutes = new Set([
  "/oauth2/auth",
  "/oauth2/token",
  "/oauth2/revoke",
  "/oauth2/introspect",
  "/oauth2/sessions/logout",
  "/oauth2/fallbacks/error",
  "/userinfo",
  "/.well-known/jwks.json",
  "/.well-known/openid-configuration",
  "/health/alive",
  "/health/ready",
  "/version",
]);

/** The route label of a path on the OAuth2 public listener: a known path, or `other`. */
export function oauth2PublicRoute(url: string | undefined): string {
  const path = (url ?? "/").split("?")[0] ?? "/";
  if (oauth2PublicRoutes.has(path)) return path;
  // oidc-provider's resume path after a login or consent: /oauth2/auth/<interaction id>.
  if (path.startsWith("/oauth2/auth/")) return "/oauth2/auth/:uid";
  return "other";
}

/** Counts every answer of a plain Node listener (the OAuth2 public one) like the Fastify hook. */
export function countNodeRequests(
  server: Server,
  metrics: IdentityMetrics,
  listener: Listener,
  routeOf: (url: string | undefined) => string,
): void {
  // Before the handler, which may rewrite req.url or answer synchronously.
  server.prependListener("request", (req, res) => {
    const started = process.hrtime.bigint();
    const route = routeOf(req.url);
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.request(listener, req.method ?? "GET", route, res.statusCode, seconds);
    });
  });
}
