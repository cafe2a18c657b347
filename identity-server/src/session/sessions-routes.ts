import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { answeringErrors } from "../http/send-error.ts";
import { badRequest, unauthorized } from "../http/errors.ts";
import { offsetPageHeaders, parseOffsetPage } from "../http/pagination.ts";
import { uuidParam } from "../http/uuid-param.ts";
import {
  listSessionsOfIdentity,
  revokeSessionOf,
  revokeSessionsExcept,
} from "../store/sessions.ts";
import { aal2LoginUrl, aal2Required, satisfiesAal } from "./aal-policy.ts";
import { fetchSession, type ActiveSession } from "./session-manager.ts";
import { sessionJson } from "./session.ts";

async function requireSession(ctx: ServerContext, request: FastifyRequest): Promise<ActiveSession> {
  const active = await fetchSession(ctx, request);
  // Kratos' herodot 401 with this reason and no error id.
  if (!active) throw unauthorized("No valid session cookie found.");
  return active;
}

/**
 * The caller's own sessions (Kratos' session handler, public side): list the other active ones,
 * sign out all others, or one other.
 */
export function registerSessionsRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get(
    "/sessions",
    answeringErrors(async (request, reply) => {
      const active = await requireSession(ctx, request);
      const required = ctx.config.secondFactor.whoamiRequiredAal;
      if (!satisfiesAal(ctx, active.session, active.identity, required)) {
        throw aal2Required(aal2LoginUrl(ctx));
      }
      const page = parseOffsetPage(request.query as Record<string, string | undefined>);
      const now = ctx.now();
      const { sessions, total } = await listSessionsOfIdentity(ctx.db, active.identity.id, {
        active: true,
        exceptId: active.session.id,
        now,
        offset: page.page * page.perPage,
        limit: page.perPage,
      });
      const headers = offsetPageHeaders(request.url, total, page);
      reply.header("link", headers.link).header("x-total-count", headers.totalCount);
      return reply.send(
        sessions.map((s) => sessionJson(s, active.identity, ctx.config.publicBaseUrl, now)),
      );
    }),
  );

  app.delete(
    "/sessions",
    answeringErrors(async (request, reply) => {
      const active = await requireSession(ctx, request);
      const count = await revokeSessionsExcept(
        ctx.db,
        active.identity.id,
        active.session.id,
        ctx.now(),
      );
      return reply.send({ count });
    }),
  );

  app.delete(
    "/sessions/:id",
    answeringErrors(async (request, reply) => {
      const active = await requireSession(ctx, request);
      const id = uuidParam((request.params as { id: string }).id);
      if (id === active.session.id) {
        // Signing out the current session is what the logout flow is for.
        throw badRequest(undefined, { message: "cannot revoke current session" });
      }
      await revokeSessionOf(ctx.db, active.identity.id, id, ctx.now());
      return reply.code(204).send();
    }),
  );
}
