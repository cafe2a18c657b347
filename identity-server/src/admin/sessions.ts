import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { answeringErrors } from "../http/send-error.ts";
import { badRequest, notFoundRow } from "../http/errors.ts";
import {
  decodeKeysetToken,
  keysetLinks,
  offsetPageHeaders,
  parseKeysetPageSize,
  parseOffsetPage,
} from "../http/pagination.ts";
import { activeFilter, uuidParam } from "../http/uuid-param.ts";
import type { Identity } from "../identity/identity.ts";
import { sessionJson, type Session } from "../session/session.ts";
import { findIdentity } from "../store/identities.ts";
import {
  deleteSessionsOfIdentity,
  findSessionById,
  listAllSessions,
  listSessionsOfIdentity,
  revokeSessionById,
  setSessionExpiry,
} from "../store/sessions.ts";

type Query = Record<string, string | string[] | undefined>;

interface Expand {
  identity: boolean;
  devices: boolean;
}

/** `expand=identity&expand=devices`; without it neither is expanded; anything else is 400. */
function parseExpand(query: Query): Expand {
  const raw = query.expand;
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  for (const value of values) {
    if (value !== "identity" && value !== "devices") {
      throw badRequest(`Could not parse expand option: ${value}`);
    }
  }
  return { identity: values.includes("identity"), devices: values.includes("devices") };
}

function single(query: Query, key: string): string | undefined {
  const value = query[key];
  return Array.isArray(value) ? value[0] : value;
}

/** The identities of the sessions, loaded once each. */
async function identitiesOf(
  ctx: ServerContext,
  sessions: Session[],
): Promise<Map<string, Identity>> {
  const out = new Map<string, Identity>();
  for (const id of new Set(sessions.map((s) => s.identityId))) {
    const identity = await findIdentity(ctx.db, id);
    if (identity) out.set(id, identity);
  }
  return out;
}

function adminJson(
  ctx: ServerContext,
  session: Session,
  identity: Identity | undefined,
  devices: boolean,
): Record<string, unknown> {
  return sessionJson(session, identity, ctx.config.publicBaseUrl, ctx.now(), {
    admin: true,
    devices,
  });
}

async function sessionOrNotFound(ctx: ServerContext, request: FastifyRequest): Promise<Session> {
  const id = uuidParam((request.params as { id: string }).id);
  const session = await findSessionById(ctx.db, id);
  if (!session) throw notFoundRow();
  return session;
}

/** Kratos' admin session endpoints (session/handler.go RegisterAdminRoutes). */
export function registerAdminSessionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get(
    "/admin/sessions",
    answeringErrors(async (request, reply) => {
      const query = request.query as Query;
      const active = activeFilter(single(query, "active"));
      const pageSize = parseKeysetPageSize(query);
      const token = single(query, "page_token");
      const expand = parseExpand(query);
      const page = await listAllSessions(ctx.db, {
        active,
        now: ctx.now(),
        pageSize,
        after: token ? decodeKeysetToken(token) : undefined,
      });
      const identities = expand.identity
        ? await identitiesOf(ctx, page.sessions)
        : new Map<string, Identity>();
      reply.header("link", keysetLinks(request.url, pageSize, page.next));
      return reply.send(
        page.sessions.map((s) => adminJson(ctx, s, identities.get(s.identityId), expand.devices)),
      );
    }),
  );

  app.get(
    "/admin/sessions/:id",
    answeringErrors(async (request, reply) => {
      const expand = parseExpand(request.query as Query);
      const session = await sessionOrNotFound(ctx, request);
      const identity = expand.identity ? await findIdentity(ctx.db, session.identityId) : undefined;
      return reply.send(adminJson(ctx, session, identity, expand.devices));
    }),
  );

  app.delete(
    "/admin/sessions/:id",
    answeringErrors(async (request, reply) => {
      const id = uuidParam((request.params as { id: string }).id);
      if (!(await revokeSessionById(ctx.db, id, ctx.now()))) throw notFoundRow();
      return reply.code(204).send();
    }),
  );

  // Kratos with `faster_session_extend` off (its default): 200 with the session (identity
  // expanded). A session is only extended once it expires within `earliest_possible_extend`.
  app.patch(
    "/admin/sessions/:id/extend",
    answeringErrors(async (request, reply) => {
      const session = await sessionOrNotFound(ctx, request);
      const now = ctx.now();
      const window = ctx.config.secondFactor.earliestPossibleExtendMs;
      if (session.expiresAt.getTime() - window < now.getTime()) {
        session.expiresAt = new Date(now.getTime() + ctx.config.sessionLifespanMs);
        await setSessionExpiry(ctx.db, session.id, session.expiresAt, now);
      }
      const identity = await findIdentity(ctx.db, session.identityId);
      return reply.send(adminJson(ctx, session, identity, false));
    }),
  );

  app.get(
    "/admin/identities/:id/sessions",
    answeringErrors(async (request, reply) => {
      const identityId = uuidParam((request.params as { id: string }).id);
      const query = request.query as Query;
      const active = activeFilter(single(query, "active"));
      const page = parseOffsetPage(query);
      const { sessions, total } = await listSessionsOfIdentity(ctx.db, identityId, {
        active,
        now: ctx.now(),
        offset: page.page * page.perPage,
        limit: page.perPage,
      });
      const identity = await findIdentity(ctx.db, identityId);
      const headers = offsetPageHeaders(request.url, total, page);
      reply.header("link", headers.link).header("x-total-count", headers.totalCount);
      return reply.send(sessions.map((s) => adminJson(ctx, s, identity, true)));
    }),
  );

  app.delete(
    "/admin/identities/:id/sessions",
    answeringErrors(async (request, reply) => {
      const identityId = uuidParam((request.params as { id: string }).id);
      if ((await deleteSessionsOfIdentity(ctx.db, identityId)) === 0) throw notFoundRow();
      return reply.code(204).send();
    }),
  );
}
