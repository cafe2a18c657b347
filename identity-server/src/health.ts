import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import type { ServerContext } from "./context.ts";

export function registerHealthRoutes(app: FastifyInstance, ctx: ServerContext, prefix = ""): void {
  app.get(`${prefix}/health/alive`, async (_request, reply) => reply.send({ status: "ok" }));
  app.get(`${prefix}/health/ready`, async (_request, reply) => {
    if (ctx.isShuttingDown()) {
      return reply.code(503).send({ errors: { shutdown: "the server is shutting down" } });
    }
    try {
      await sql`SELECT 1`.execute(ctx.db);
      return reply.send({ status: "ok" });
    } catch (error) {
      return reply
        .code(503)
        .send({ errors: { database: error instanceof Error ? error.message : "unavailable" } });
    }
  });
}
