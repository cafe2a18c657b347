import type { FastifyInstance } from "fastify";
import { badRequest } from "../hydra-error.ts";
import {
  deleteTrustedIssuer,
  getTrustedIssuer,
  listTrustedIssuers,
  trustIssuer,
} from "../trust/trusted-issuers.ts";
import type { AdminDeps } from "./admin-deps.ts";
import { readPage, setLinkHeader } from "./pagination.ts";
import { jsonBody, queryOf } from "./request-input.ts";

const base = "/admin/trust/grants/jwt-bearer/issuers";
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type IdParams = { Params: { id: string } };

function checkedId(id: string): string {
  if (!uuid.test(id)) throw badRequest(`Unable to parse parameter id: ${id} is not a UUID`);
  return id.toLowerCase();
}

/** Hydra's trusted jwt-bearer grant issuers (oauth2/trust/handler.go). */
export function registerTrustRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.get(base, async (request, reply) => {
    const query = queryOf(request);
    const page = readPage(query);
    const result = await listTrustedIssuers(deps.db, {
      issuer: typeof query.issuer === "string" ? query.issuer : undefined,
      pageSize: page.pageSize,
      after: page.after,
    });
    setLinkHeader(request, reply, page, result.nextAfter);
    return reply.send(result.issuers);
  });

  app.post(base, async (request, reply) => {
    const trusted = await trustIssuer(deps.db, jsonBody(request), deps.now());
    return reply.code(201).header("location", `${base}/${trusted.id}`).send(trusted);
  });

  app.get<IdParams>(`${base}/:id`, async (request, reply) =>
    reply.send(await getTrustedIssuer(deps.db, checkedId(request.params.id))),
  );

  app.delete<IdParams>(`${base}/:id`, async (request, reply) => {
    await deleteTrustedIssuer(deps.db, checkedId(request.params.id));
    return reply.code(204).send();
  });
}
