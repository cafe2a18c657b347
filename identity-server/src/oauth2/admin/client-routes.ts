import type { FastifyInstance } from "fastify";
import { clientJson } from "../clients/client-document.ts";
import {
  createClient,
  patchClient,
  readClient,
  removeClient,
  replaceClient,
  setClientLifespans,
} from "../clients/client-service.ts";
import { listClients } from "../clients/client-store.ts";
import type { AdminDeps } from "./admin-deps.ts";
import { readPage, setLinkHeader } from "./pagination.ts";
import { jsonBody, queryOf } from "./request-input.ts";

type IdParams = { Params: { id: string } };

/** Hydra's client administration (client/handler.go). */
export function registerClientRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const service = deps.clients;

  app.get("/admin/clients", async (request, reply) => {
    const query = queryOf(request);
    const page = readPage(query);
    const result = await listClients(deps.db, {
      pageSize: page.pageSize,
      after: page.after,
      clientName: typeof query.client_name === "string" ? query.client_name : undefined,
      owner: typeof query.owner === "string" ? query.owner : undefined,
    });
    setLinkHeader(request, reply, page, result.nextAfter);
    return reply.send(result.clients.map((stored) => clientJson(stored.client)));
  });

  app.post("/admin/clients", async (request, reply) => {
    const client = await createClient(service, jsonBody(request));
    return reply
      .code(201)
      .header("location", `/admin/clients/${encodeURIComponent(String(client.client_id))}`)
      .send(client);
  });

  app.get<IdParams>("/admin/clients/:id", async (request, reply) =>
    reply.send(await readClient(service, request.params.id)),
  );

  app.put<IdParams>("/admin/clients/:id", async (request, reply) =>
    reply.send(await replaceClient(service, request.params.id, jsonBody(request))),
  );

  app.patch<IdParams>("/admin/clients/:id", async (request, reply) =>
    reply.send(await patchClient(service, request.params.id, jsonBody(request))),
  );

  app.delete<IdParams>("/admin/clients/:id", async (request, reply) => {
    await removeClient(service, request.params.id);
    return reply.code(204).send();
  });

  app.put<IdParams>("/admin/clients/:id/lifespans", async (request, reply) =>
    reply.send(await setClientLifespans(service, request.params.id, jsonBody(request))),
  );
}
