import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { withSubmittedFlow } from "../submitted-flow.ts";
import { signInErrorPolicy } from "../sign-in-error-policy.ts";
import { isJsonRequest } from "../../http/content-negotiation.ts";
import { notFoundRow } from "../../http/errors.ts";
import { FlowBody } from "../../http/flow-body.ts";
import { loginStrategiesFor } from "../../methods/login-strategies.ts";
import { fetchSession } from "../../session/session-manager.ts";
import { uiText } from "../../text/messages.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { alreadyLoggedInForLogin, sessionRequiredForHigherAal } from "../already-logged-in.ts";
import { ensureFlowValid, uiUrl, type FlowErrorPolicy } from "../flow-errors.ts";
import { flowJson, type Flow } from "../../selfservice/flow.ts";
import { completeLogin } from "./complete.ts";
import { addTrustDeviceOption } from "./second-factor.ts";
import { withLoginRequest } from "../oauth2-login-challenge.ts";
import { loginSort, createLoginFlow } from "./create.ts";

function errorPolicy(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): FlowErrorPolicy {
  return signInErrorPolicy(ctx, (type) => createLoginFlow(ctx, request, reply, type), {
    kind: "login",
    uiPath: "/login",
    redirectStatus: 303,
    expiredMessageId: 4010001,
    sortOptions: loginSort,
  });
}

/**
 * A step that is not the end of the login (a code was sent): Kratos answers JSON and API clients
 * 400 with the flow (kratos-behaviour §0-2), browsers 303 to the login UI.
 */
async function answerLoginStep(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
): Promise<FastifyReply> {
  if (flow.type === "browser" && !isJsonRequest(request)) {
    return reply.redirect(uiUrl(ctx, "/login", flow.id), 303);
  }
  return reply.code(400).send(flowJson(await withLoginRequest(ctx, flow)));
}

export async function submitLogin(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const policy = errorPolicy(ctx, request, reply);
  return withSubmittedFlow(ctx, request, reply, policy, notFoundRow, async (flow) => {
    const existing = await fetchSession(ctx, request);
    if (
      existing &&
      !flow.refresh &&
      !(flow.requestedAal === "aal2" && existing.session.aal !== "aal2")
    ) {
      if (isJsonRequest(request) || flow.type === "api") throw alreadyLoggedInForLogin();
      return reply.redirect(ctx.config.defaultReturnUrl, 303);
    }
    if (!existing && flow.requestedAal === "aal2") throw sessionRequiredForHigherAal();
    ensureFlowValid(flow, ctx.now());
    // The one read of the submission: every strategy decodes its fields from it.
    const body = await FlowBody.read(request);
    const identity = existing?.identity;
    const aal = flow.requestedAal === "aal2" && identity ? "aal2" : "aal1";
    const strategy = loginStrategiesFor(aal).find((s) => s.responsible(body));
    if (!strategy) throw ValidationError.of("", uiText(4010002));
    // Read before the factor is checked: a malformed value must not spend a one-time code.
    if (aal === "aal2") body.fields([{ name: "trust_device", type: "boolean" }]);
    let outcome;
    try {
      outcome = await strategy.submit({ ctx, request, reply, flow, body, identity });
    } catch (error) {
      ctx.metrics.login(strategy.id, "failure");
      throw error;
    }
    if (outcome.kind === "continue") {
      if (identity) addTrustDeviceOption(ctx, flow, identity);
      return await answerLoginStep(ctx, request, reply, flow);
    }
    const answer = await completeLogin({
      ctx,
      request,
      reply,
      flow,
      body,
      identity: outcome.identity,
      existing,
      factor: { method: strategy.id, aal: strategy.aal },
      now: ctx.now(),
    });
    ctx.metrics.login(strategy.id, "success");
    return answer;
  });
}
