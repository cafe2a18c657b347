import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { withSubmittedFlow } from "../submitted-flow.ts";
import { signInErrorPolicy } from "../sign-in-error-policy.ts";
import { isJsonRequest } from "../../http/content-negotiation.ts";
import { notFoundRow } from "../../http/errors.ts";
import { secureRedirectTo } from "../../http/return-to.ts";
import { FlowBody } from "../../http/flow-body.ts";
import { registrationStrategies } from "../../methods/registration-strategies.ts";
import { fetchSession } from "../../session/session-manager.ts";
import { uiText } from "../../text/messages.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { alreadyLoggedInForRegistration } from "../already-logged-in.ts";
import { sendError } from "../../http/send-error.ts";
import { ensureFlowValid, type FlowErrorPolicy } from "../flow-errors.ts";
import { registrationSort, createRegistrationFlow } from "./create.ts";
import { completeRegistration } from "./complete.ts";

function errorPolicy(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): FlowErrorPolicy {
  return signInErrorPolicy(ctx, (type) => createRegistrationFlow(ctx, request, reply, type), {
    kind: "registration",
    uiPath: "/registration",
    redirectStatus: 302,
    expiredMessageId: 4040001,
    sortOptions: registrationSort(ctx),
  });
}

export async function submitRegistration(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const policy = errorPolicy(ctx, request, reply);
  // Kratos guards the whole endpoint: with a session, browsers are sent on, others get 400.
  if (await fetchSession(ctx, request)) {
    if (isJsonRequest(request)) return sendError(reply, alreadyLoggedInForRegistration());
    return reply.redirect(secureRedirectTo(ctx.returnToPolicy, { sourceUrl: undefined }), 302);
  }
  return withSubmittedFlow(ctx, request, reply, policy, notFoundRow, async (flow) => {
    ensureFlowValid(flow, ctx.now());
    // The one read of the submission: the responsible strategy decodes its fields from it.
    const body = await FlowBody.read(request);
    const strategy = registrationStrategies().find((s) => s.responsible(body));
    if (!strategy) throw ValidationError.of("", uiText(4010003));
    const identity = await strategy.submit({ ctx, request, reply, flow, body });

    return completeRegistration({
      ctx,
      request,
      reply,
      flow,
      body,
      identity,
      existing: undefined,
      factor: { method: strategy.id, aal: "aal1" },
      now: ctx.now(),
    });
  });
}
