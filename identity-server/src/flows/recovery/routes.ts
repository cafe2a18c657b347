import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { registerFlowRoutes } from "../register-flow-routes.ts";
import type { ServerContext } from "../../context.ts";
import { isJsonRequest } from "../../http/content-negotiation.ts";
import { secureRedirectTo } from "../../http/return-to.ts";
import { fetchSession } from "../../session/session-manager.ts";
import { alreadyLoggedInForRecovery } from "../already-logged-in.ts";
import { forwardError } from "../../selfservice/errors.ts";
import { sendError } from "../../http/send-error.ts";
import { uiUrl } from "../flow-errors.ts";
import { flowJson } from "../../selfservice/flow.ts";
import { sendRedirectOrJson } from "../flow-responses.ts";
import { recoveryFlows } from "./flow.ts";
import { startCodeFlow } from "../code-flow.ts";
import { submitRecovery } from "./submit.ts";

/**
 * Recovery is for people who cannot sign in: with a session, browsers go on, others get 400.
 * True when that answer was sent (a boolean: a Fastify reply is thenable, awaiting it yields
 * undefined).
 */
async function refuseSignedIn(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  if (!(await fetchSession(ctx, request))) return false;
  if (isJsonRequest(request)) {
    void sendError(reply, alreadyLoggedInForRecovery());
    return true;
  }
  let target = ctx.config.defaultReturnUrl;
  try {
    target = secureRedirectTo(ctx.returnToPolicy, {
      sourceUrl: `${ctx.config.publicBaseUrl}${request.url}`,
    });
  } catch {
    // An unacceptable return_to falls back to the default, as Kratos' RedirectOnAuthenticated does.
  }
  void reply.redirect(target, 302);
  return true;
}

export function registerRecoveryRoutes(app: FastifyInstance, ctx: ServerContext): void {
  registerFlowRoutes(app, ctx, "recovery", {
    async browser(request, reply) {
      try {
        if (await refuseSignedIn(ctx, request, reply)) return reply;
        const flow = await startCodeFlow(ctx, request, reply, recoveryFlows, "browser");
        return sendRedirectOrJson(request, reply, flow, uiUrl(ctx, "/recovery", flow.id));
      } catch (error) {
        return forwardError(ctx, request, reply, error);
      }
    },
    async api(request, reply) {
      try {
        if (await fetchSession(ctx, request)) return sendError(reply, alreadyLoggedInForRecovery());
        const flow = await startCodeFlow(ctx, request, reply, recoveryFlows, "api");
        return reply.send(flowJson(flow));
      } catch (error) {
        return sendError(reply, error);
      }
    },
    submit: (request, reply) => submitRecovery(ctx, request, reply),
  });
}
