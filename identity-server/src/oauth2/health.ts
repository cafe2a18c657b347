import type { ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { versionBody } from "../http/version-routes.ts";
import type { OAuth2Db } from "./store/oauth2-tables.ts";

// Hydra's /health/alive and /health/ready on both listeners (healthStatus, or 503 with `errors`),
// and its /version (healthx.SetVersionRoutes): Hydra registers that on the admin router only
// (driver/registry_sql.go), answered there under `/admin` too; the public listener's is ours.

/** Hydra's readiness error shape, from the start of a shutdown. */
const shuttingDown = {
  status: 503,
  body: { errors: { shutdown: "the service is shutting down" } },
};

async function readiness(db: OAuth2Db): Promise<{ status: number; body: unknown }> {
  try {
    await sql`SELECT 1`.execute(db);
    return { status: 200, body: { status: "ok" } };
  } catch (error) {
    return {
      status: 503,
      body: { errors: { database: error instanceof Error ? error.message : "unavailable" } },
    };
  }
}

export function registerAdminHealthRoutes(
  app: FastifyInstance,
  db: OAuth2Db,
  isDraining: () => boolean = () => false,
): void {
  app.get("/health/alive", async (_request, reply) => reply.send({ status: "ok" }));
  app.get("/health/ready", async (_request, reply) => {
    const { status, body } = isDraining() ? shuttingDown : await readiness(db);
    return reply.code(status).send(body);
  });
  for (const path of ["/version", "/admin/version"]) {
    app.get(path, async (_request, reply) => reply.send(versionBody()));
  }
}

/**
 * Answers the health and version paths on the public listener; false for every other path. The
 * public `/version` is ours: without `publicVersion` (strict mode) it is left to the 404.
 */
export async function answerPublicHealth(
  db: OAuth2Db,
  method: string | undefined,
  path: string,
  res: ServerResponse,
  publicVersion = true,
  draining = false,
): Promise<boolean> {
  if (method !== "GET") return false;
  let answer: { status: number; body: unknown };
  if (path === "/health/alive") answer = { status: 200, body: { status: "ok" } };
  else if (path === "/health/ready") answer = draining ? shuttingDown : await readiness(db);
  else if (path === "/version" && publicVersion) answer = { status: 200, body: versionBody() };
  else return false;
  const { status, body } = answer;
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
  return true;
}
