import { createHash, timingSafeEqual } from "node:crypto";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
} from "fastify";
import {
  answerClientError,
  clientErrorReason,
  clientErrorStatus,
  refuseConnect,
} from "../../http/client-errors.ts";
import { apiListenerOptions } from "../../http/api-listener-options.ts";
import type { ListenerLimits } from "../../http/listener-limits.ts";
import { recordRoutes } from "../../http/route-registry.ts";
import { registerBaseSecurityHeaders } from "../../http/security-headers.ts";
import { UsedChallengeError } from "../challenges/interactions.ts";
import { internalError, isHydraError, unauthorized, HydraError } from "../hydra-error.ts";

/** Compares the presented bearer token with the configured one in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!match?.[1]) return false;
  // Hashing first gives both sides the same length, so the comparison leaks nothing.
  const presented = createHash("sha256").update(match[1].trim()).digest();
  const expected = createHash("sha256").update(token).digest();
  return timingSafeEqual(presented, expected);
}

/**
 * The admin listener's Fastify instance: raw bodies (handlers decode them and answer Hydra's
 * errors), an optional bearer token on everything but the health checks, and every error in
 * Hydra's `{error, error_description}` shape.
 */
export async function createAdminApp(
  logger: FastifyBaseLogger,
  adminToken: string | undefined,
  limits: ListenerLimits,
): Promise<FastifyInstance> {
  const app = Fastify({
    ...apiListenerOptions(logger, limits),
    // Requests the HTTP parser refuses, in Hydra's error shape (not Fastify's or an empty 400).
    clientErrorHandler: (error, socket) =>
      answerClientError(
        socket,
        error,
        new HydraError(
          clientErrorStatus(error),
          "invalid_request",
          clientErrorReason(error),
        ).body(),
      ),
    // A URL the router cannot decode or a path parameter over its length limit.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void (reply as FastifyReply)
        .code(status)
        .send(new HydraError(status, "invalid_request", error.message).body());
    },
  });
  recordRoutes(app);
  refuseConnect(app.server, (status) =>
    new HydraError(status, "invalid_request", "The method CONNECT is not supported.").body(),
  );
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  registerBaseSecurityHeaders(app);
  app.addHook("onRequest", (request, _reply, done) => {
    const open = !adminToken || request.url.startsWith("/health/");
    if (open || bearerMatches(request.headers.authorization, adminToken)) done();
    else done(unauthorized("A valid admin bearer token is required."));
  });

  app.setNotFoundHandler((_request, reply) =>
    reply
      .code(404)
      .send(new HydraError(404, "Not Found", "Unable to locate the requested resource").body()),
  );

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof UsedChallengeError) {
      return reply.code(410).send({ redirect_to: error.redirectTo });
    }
    if (isHydraError(error)) return reply.code(error.status).send(error.body());
    const status =
      "statusCode" in error && typeof error.statusCode === "number" ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return reply
        .code(status)
        .send(new HydraError(status, "invalid_request", error.message).body());
    }
    request.log.error({ err: error }, "unhandled oauth2 admin error");
    return reply.code(500).send(internalError().body());
  });

  return app;
}
