import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { sendError } from "./send-error.ts";
import { unauthorized } from "./errors.ts";

// Liveness and readiness probes stay open: they reveal nothing and orchestrators call them bare.
const openPaths = new Set([
  "/health/alive",
  "/health/ready",
  "/admin/health/alive",
  "/admin/health/ready",
]);

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** The bearer token of the request, if it sent `Authorization: Bearer <token>`. */
function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  return match?.[1];
}

/**
 * With IDENTITY_ADMIN_TOKEN set, every admin route asks for `Authorization: Bearer <token>`, as Ory
 * Network's admin APIs ask for an API key. Both sides are hashed first, so the constant-time
 * comparison also hides the token's length. Without a token the (loopback-only) admin API is open.
 */
export function registerAdminTokenCheck(app: FastifyInstance, token: string | undefined): void {
  if (token === undefined) return;
  const expected = digest(token);
  app.addHook("onRequest", async (request, reply) => {
    if (openPaths.has(request.url.split("?")[0] ?? "")) return;
    const sent = bearerToken(request);
    if (sent !== undefined && timingSafeEqual(digest(sent), expected)) return;
    reply.header("www-authenticate", 'Bearer realm="identity-admin"');
    return sendError(
      reply,
      unauthorized(
        sent === undefined
          ? "The request must carry the admin token as `Authorization: Bearer <token>`."
          : "The admin token in the Authorization header is not valid.",
      ),
    );
  });
}
