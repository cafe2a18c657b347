import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import type { HerodotError } from "../http/errors.ts";
import type { Flow } from "../selfservice/flow.ts";
import { flowIdFromQuery } from "../selfservice/flow-id.ts";
import { findFlow } from "../store/flows.ts";
import { writeFlowError, type FlowErrorPolicy } from "./flow-errors.ts";

/**
 * A submit endpoint's frame (Kratos' updateXFlow handlers): the `?flow=` flow of the policy's kind
 * loaded (400 for a malformed id, `notFound()` for an unknown one), then `step`; any error is
 * answered by the flow error policy, with the flow once it is loaded.
 */
export async function withSubmittedFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  policy: FlowErrorPolicy,
  notFound: () => HerodotError,
  step: (flow: Flow) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  let flow: Flow | undefined;
  try {
    flow = await findFlow(ctx.db, policy.kind, flowIdFromQuery(request.query));
    if (!flow) throw notFound();
  } catch (error) {
    return writeFlowError(ctx, request, reply, undefined, error, policy);
  }
  try {
    return await step(flow);
  } catch (error) {
    return writeFlowError(ctx, request, reply, flow, error, policy);
  }
}
