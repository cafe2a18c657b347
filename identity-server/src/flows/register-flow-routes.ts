import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import type { FlowKind } from "../selfservice/flow.ts";
import { sendStoredFlow } from "./get-flow.ts";

type FlowRoute = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

export interface FlowRoutes {
  /** `GET /self-service/<kind>/browser`: a browser flow (a redirect to the UI, or JSON for SPAs). */
  browser: FlowRoute;
  /** `GET /self-service/<kind>/api`: a flow for native apps, always JSON. */
  api: FlowRoute;
  /** `GET /self-service/<kind>/flows?id=`: the stored flow; by default `sendStoredFlow`. */
  flows?: FlowRoute;
  /** `POST /self-service/<kind>?flow=`, and GET for the links in e-mails. */
  submit: FlowRoute;
}

/** Kratos' route shape, the same for every self-service flow kind (login, registration…). */
export function registerFlowRoutes(
  app: FastifyInstance,
  ctx: ServerContext,
  kind: FlowKind,
  routes: FlowRoutes,
): void {
  const base = `/self-service/${kind}`;
  app.get(`${base}/browser`, routes.browser);
  app.get(`${base}/api`, routes.api);
  app.get(
    `${base}/flows`,
    routes.flows ?? ((request, reply) => sendStoredFlow(ctx, request, reply, kind)),
  );
  app.post(base, routes.submit);
  app.get(base, routes.submit);
}
