import { Router } from "express";
import type { Response } from "express";
import type { IdentityReadiness } from "./identity-readiness.server.ts";

/**
 * Kratos' health endpoints on the portal, for a load balancer or an orchestrator:
 * `/health/alive` answers `{"status":"ok"}` while the process serves at all; `/health/ready`
 * answers the same while the portal should get traffic, else 503 with Kratos' (ory/x healthx)
 * error shape `{"errors": {"<check>": "<message>"}}`, as identity-server/src/health.ts does.
 */
export interface HealthOptions {
  /** True from the start of a shutdown (SIGTERM): the balancer should send traffic elsewhere. */
  isDraining: () => boolean;
  /** The identity service: without it no page of the portal works. */
  identityReadiness: IdentityReadiness;
}

export function healthRoutes({ isDraining, identityReadiness }: HealthOptions): Router {
  const router = Router();
  router.get("/health/alive", (_req, res) => {
    send(res, 200, { status: "ok" });
  });
  router.get("/health/ready", async (_req, res) => {
    if (isDraining()) {
      send(res, 503, { errors: { shutdown: "the portal is shutting down" } });
      return;
    }
    if (!(await identityReadiness.isUp())) {
      send(res, 503, { errors: { identity: "the identity service is not ready" } });
      return;
    }
    send(res, 200, { status: "ok" });
  });
  return router;
}

/** JSON that no cache or CDN keeps: a stored "ok" would hide a portal that went away. */
function send(res: Response, status: number, body: object): void {
  res
    .status(status)
    .set({
      "Cache-Control": "no-store",
      Pragma: "no-cache",
      "X-Content-Type-Options": "nosniff",
    })
    .json(body);
}
