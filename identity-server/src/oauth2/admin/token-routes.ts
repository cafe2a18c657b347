import type { FastifyInstance } from "fastify";
import { invalidRequest } from "../hydra-error.ts";
import { introspect } from "../tokens/introspection.ts";
import { deleteAccessTokensOfClient } from "../tokens/token-rows.ts";
import type { AdminDeps } from "./admin-deps.ts";
import { formBody, queryOf } from "./request-input.ts";

/** Hydra's admin token endpoints (oauth2/handler.go). */
export function registerTokenRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.post("/admin/oauth2/introspect", async (request, reply) => {
    const form = formBody(request);
    if ([...form.keys()].length === 0) throw invalidRequest("The POST body can not be empty.");
    const scope = (form.get("scope") ?? "").split(" ").filter((s) => s !== "");
    const answer = await introspect(
      deps.provider(),
      deps.db,
      deps.issuer,
      form.get("token") ?? "",
      scope,
    );
    return reply.send(answer);
  });

  app.delete("/admin/oauth2/tokens", async (request, reply) => {
    const clientId = queryOf(request).client_id;
    if (typeof clientId !== "string" || clientId === "") {
      throw invalidRequest("Query parameter 'client_id' is not defined but it should have been.");
    }
    await deleteAccessTokensOfClient(deps.db, clientId);
    return reply.code(204).send();
  });
}
