import type { FastifyInstance } from "fastify";

/**
 * The Ory release whose behaviour the embedded server follows (the vendored specs and the sources
 * it was checked against: vendor/ory/README.md). Kratos and Hydra answer `/version` with their own
 * build version; SDKs (`getVersion`) only read the field.
 */
export const oryVersion = "v26.2.0";

/** Ory's `version` model, as healthx writes it. */
export function versionBody(): { version: string } {
  return { version: oryVersion };
}

/**
 * GET /version (Kratos' healthx.SetVersionRoutes). Kratos registers it on the admin router, which
 * also answers it under `/admin`; the public listener answering it too is ours (README).
 */
export function registerVersionRoutes(app: FastifyInstance, paths: string[]): void {
  for (const path of paths) {
    app.get(path, async (_request, reply) => reply.send(versionBody()));
  }
}
