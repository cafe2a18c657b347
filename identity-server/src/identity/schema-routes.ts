import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../context.ts";
import { sendError } from "../http/send-error.ts";
import { HerodotError } from "../http/errors.ts";
import { offsetPageHeaders, parseOffsetPage } from "../http/pagination.ts";

/**
 * GET /schemas and /schemas/{id}: where `identity.schema_url` points. The id may be given as is
 * or base64url-encoded (as in `schema_url`), like Kratos' Schemas.GetByID.
 */
export function registerSchemaRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const encodedId = Buffer.from(ctx.schema.id).toString("base64url");
  const schemas = [{ id: ctx.schema.id, schema: ctx.schema.raw }];

  app.get("/schemas", async (request, reply) => {
    const page = parseOffsetPage(request.query as Record<string, string | undefined>);
    const headers = offsetPageHeaders(request.url, schemas.length, page);
    reply.header("link", headers.link).header("x-total-count", headers.totalCount);
    const start = page.page * page.perPage;
    return reply.send(schemas.slice(start, start + page.perPage));
  });

  app.get("/schemas/:id", async (request, reply) => {
    const { id } = request.params as { id: string };
    if (id !== encodedId && id !== ctx.schema.id && id !== "") {
      return sendError(
        reply,
        new HerodotError(404, { reason: `Identity schema \`${id}\` could not be found.` }),
      );
    }
    return reply.send(ctx.schema.raw);
  });
}
