import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { csrfViolation, requestMatchesFlowCsrf } from "../http/csrf.ts";
import { gone, notFoundRow, type HerodotError } from "../http/errors.ts";
import { findFlow } from "../store/flows.ts";
import { forwardError } from "../selfservice/errors.ts";
import { sendError } from "../http/send-error.ts";
import { flowJson, type Flow, type FlowKind } from "../selfservice/flow.ts";
import { isUuid } from "../http/uuid-param.ts";
import { withLoginRequest } from "./oauth2-login-challenge.ts";

/**
 * The 410 for fetching an expired flow. Login and registration tag it `self_service_flow_expired`;
 * recovery (browser), verification and settings send Kratos' bare "Gone" error.
 */
export function expiredFlowFetchError(
  ctx: ServerContext,
  flow: Flow,
  options: { withId: boolean },
): HerodotError {
  const kind = flow.kind;
  const id = options.withId ? { id: "self_service_flow_expired" } : {};
  if (flow.type === "browser") {
    const redirectTo = new URL(`${ctx.config.publicBaseUrl}/self-service/${kind}/browser`);
    if (flow.returnTo) redirectTo.searchParams.set("return_to", flow.returnTo);
    return gone({
      ...id,
      reason: `The ${kind} flow has expired. Redirect the user to the ${kind} flow init endpoint to initialize a new ${kind} flow.`,
      details: { redirect_to: redirectTo.toString(), return_to: flow.returnTo ?? "" },
    });
  }
  return gone({
    ...id,
    reason: `The ${kind} flow has expired. Call the ${kind} flow init API endpoint to initialize a new ${kind} flow.`,
    details: { api: `${ctx.config.publicBaseUrl}/self-service/${kind}/api` },
  });
}

/**
 * GET /self-service/<kind>/flows?id= for login, registration, recovery and verification: 404 for an
 * unknown id; a browser flow also needs the anti-CSRF cookie it was created with (403), unless an
 * administrator created it; an expired flow is 410 with where to start a new one.
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
  const csrfChecked = flow.type === "browser" && flow.internalContext.skip_csrf !== true;
  if (csrfChecked && !requestMatchesFlowCsrf(request, ctx.cookies, flow.csrfToken)) {
    return sendError(reply, csrfViolation(request, ctx.cookies, query.csrf_token));
  }
  if (flow.expiresAt < ctx.now()) {
    // Kratos builds the API recovery answer from its flow.ExpiredError, which carries the id.
    const tagged =
      kind === "login" || kind === "registration" || (kind === "recovery" && flow.type === "api");
    return sendError(reply, expiredFlowFetchError(ctx, flow, { withId: tagged }));
  }
  try {
    // A flow answering an OAuth2 login challenge shows the login request as it is now.
    return reply.send(flowJson(await withLoginRequest(ctx, flow)));
  } catch (error) {
    return forwardError(ctx, request, reply, error);
  }
}
