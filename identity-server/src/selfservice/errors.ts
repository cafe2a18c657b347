import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { csrfTokenFor } from "../http/csrf.ts";
import { acceptsJson, isJsonRequest } from "../http/content-negotiation.ts";
import { HerodotError, notFoundRow } from "../http/errors.ts";
import { sendError, toHerodot } from "../http/send-error.ts";
import { insertError, readError } from "../store/errors.ts";
import { isUuid } from "../http/uuid-param.ts";

/**
 * Kratos' errorx Forward: JSON clients get the error; browsers get it stored and are redirected
 * (303) to the error UI, which reads it back from GET /self-service/errors?id=.
 */
export async function forwardError(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
): Promise<FastifyReply> {
  if (isJsonRequest(request)) return sendError(reply, error);
  const id = randomUUID();
  const herodot = toHerodot(error);
  await insertError(
    ctx.db,
    id,
    herodot.body() as unknown as Record<string, unknown>,
    csrfTokenFor(request, reply, ctx.cookies),
    ctx.now(),
  );
  if (acceptsJson(request)) return sendError(reply, error);
  return reply.redirect(`${ctx.config.uiBaseUrl}/error?id=${id}`, 303);
}

export function registerErrorRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get("/self-service/errors", async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const id = query.error || query.id || "";
    if (id === "stub:500") {
      // A canned error for building error pages; Kratos leaves its timestamps zero.
      return reply.send({
        id: randomUUID(),
        error: new HerodotError(500, { reason: "This is a stub error." }).body(),
        created_at: "0001-01-01T00:00:00Z",
        updated_at: "0001-01-01T00:00:00Z",
      });
    }
    const stored = isUuid(id) ? await readError(ctx.db, id.toLowerCase(), ctx.now()) : undefined;
    if (!stored) return sendError(reply, notFoundRow());
    return reply.send({
      id: stored.id,
      error: stored.error,
      created_at: stored.createdAt.toISOString(),
      updated_at: stored.updatedAt.toISOString(),
    });
  });
}
