import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../context.ts";
import { unauthorized } from "../http/errors.ts";
import { sendError } from "../flows/errors.ts";
import { fetchSession } from "./session-manager.ts";
import { sessionJson } from "./session.ts";

/** GET /sessions/whoami: the caller's session (cookie, X-Session-Token or Bearer) or 401. */
export function registerWhoamiRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.route({
    method: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    url: "/sessions/whoami",
    handler: async (request, reply) => {
      const active = await fetchSession(ctx, request);
      if (!active) {
        // Kratos sends this 401 without an error id (see kratos-behaviour §0-15).
        return sendError(reply, unauthorized("No valid session credentials found in the request."));
      }
      reply.header("x-kratos-authenticated-identity-id", active.identity.id);
      return reply.send(
        sessionJson(active.session, active.identity, ctx.config.publicBaseUrl, ctx.now()),
      );
    },
  });
}
