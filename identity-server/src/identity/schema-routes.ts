import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../context.ts";
import { sendError } from "../flows/errors.ts";
import { notFoundRow } from "../http/errors.ts";

/** GET /schemas and /schemas/{id}: where `identity.schema_url` points. */
export function registerSchemaRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const encodedId = Buffer.from(ctx.schema.id).toString("base64url");
  app.get("/schemas", async (_request, reply) =>
    reply.send([{ id: ctx.schema.id, schema: ctx.schema.raw }]),
  );
  app.get("/schemas/:id", async (request, reply) => {
    const { id } = request.params as { id: string };
    if (id !== encodedId && id !== ctx.schema.id) return sendError(reply, notFoundRow());
    return reply.send(ctx.schema.raw);
  });
}
