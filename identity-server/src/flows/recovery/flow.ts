import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { csrfTokenForFlowType } from "../../http/csrf.ts";
import { showRecoveryAddressForm } from "../../methods/code/recovery-nodes.ts";
import type { Flow, FlowType } from "../../selfservice/flow.ts";
import { newFlow } from "../../selfservice/new-flow.ts";
import type { CodeFlowKind } from "../code-flow.ts";

/** A new recovery flow asking for the e-mail address (Kratos' recovery.NewFlow); not yet stored. */
export function buildRecoveryFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  type: FlowType,
): Flow {
  const flow = newFlow(ctx, request, reply, "recovery", type);
  flow.active = "code";
  showRecoveryAddressForm(flow, csrfTokenForFlowType(request, reply, ctx.cookies, type));
  return flow;
}

/** Flows an administrator made skip the CSRF checks: the user did not start them in a browser. */
export function skipsCsrf(flow: Flow): boolean {
  return flow.internalContext.skip_csrf === true;
}

export const recoveryFlows: CodeFlowKind = {
  kind: "recovery",
  uiPath: "/recovery",
  expiredMessageId: 4060005,
  build: buildRecoveryFlow,
};
