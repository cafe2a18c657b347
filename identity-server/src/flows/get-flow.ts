import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { csrfViolation, requestMatchesFlowCsrf } from "../http/csrf.ts";
import { gone, notFoundRow } from "../http/errors.ts";
import { findFlow } from "../store/flows.ts";
import { sendError } from "./errors.ts";
import { flowJson, type FlowKind } from "./flow.ts";
import { isUuid } from "./flow-id.ts";

/**
 * GET /self-service/<kind>/flows?id=: 404 for an unknown id; a browser flow also needs the anti-CSRF
 * cookie it was created with (403); an expired flow is 410 with where to start a new one.
 */
export async function sendStoredFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: FlowKind,
): Promise<FastifyReply> {
  const query = request.query as Record<string, string | undefined>;
  const id = query.id ?? "";
  const flow = isUuid(id) ? await findFlow(ctx.db, kind, id.toLowerCase()) : undefined;
  if (!flow) return sendError(reply, notFoundRow());
  if (flow.type === "browser" && !requestMatchesFlowCsrf(request, ctx.cookies, flow.csrfToken)) {
    return sendError(reply, csrfViolation(request, ctx.cookies, query.csrf_token));
  }
  if (flow.expiresAt < ctx.now()) {
    if (flow.type === "browser") {
      const redirectTo = new URL(`${ctx.config.publicBaseUrl}/self-service/${kind}/browser`);
      if (flow.returnTo) redirectTo.searchParams.set("return_to", flow.returnTo);
      return sendError(
        reply,
        gone({
          id: "self_service_flow_expired",
          reason: `The ${kind} flow has expired. Redirect the user to the ${kind} flow init endpoint to initialize a new ${kind} flow.`,
          details: { redirect_to: redirectTo.toString(), return_to: flow.returnTo ?? "" },
        }),
      );
    }
    return sendError(
      reply,
      gone({
        id: "self_service_flow_expired",
        reason: `The ${kind} flow has expired. Call the ${kind} flow init API endpoint to initialize a new ${kind} flow.`,
        details: { api: `${ctx.config.publicBaseUrl}/self-service/${kind}/api` },
      }),
    );
  }
  return reply.send(flowJson(flow));
}
