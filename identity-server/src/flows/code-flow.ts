import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { withSubmittedFlow } from "./submitted-flow.ts";
import { regenerateCsrfSecret } from "../http/csrf.ts";
import { HerodotError } from "../http/errors.ts";
import { codeRequesterOf, type CodeRequester } from "../rate-limit/code-requester.ts";
import type { Flow, FlowType } from "../selfservice/flow.ts";
import { deleteCodesOfFlow } from "../store/codes.ts";
import { insertFlow, updateFlow } from "../store/flows.ts";
import type { Executor } from "../store/schema.ts";
import type { UiText } from "../text/messages.ts";
import { addMessage } from "../ui/nodes.ts";
import { ensureFlowValid, type FlowErrorPolicy } from "./flow-errors.ts";

/**
 * Recovery and verification are one kind of flow (Kratos' code strategy): an address is typed in,
 * a code is sent to it, and the code is checked. What differs is declared here; the skeleton
 * (creating, loading, expiring, sending a code) is written once below.
 */
export interface CodeFlowKind {
  kind: "recovery" | "verification";
  /** The UI page, e.g. "/recovery". */
  uiPath: string;
  /** The message a replaced expired flow carries (4060005, 4070005). */
  expiredMessageId: number;
  /** A new flow of this kind asking for the address; not yet stored. */
  build(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, type: FlowType): Flow;
}

/** A new flow of the kind, stored. */
export async function startCodeFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  spec: CodeFlowKind,
  type: FlowType,
): Promise<Flow> {
  const flow = spec.build(ctx, request, reply, type);
  await insertFlow(ctx.db, flow);
  return flow;
}

/**
 * A flow that cannot go on is replaced: a fresh flow of the kind (with a new CSRF secret) carries
 * the message, stored; the caller tells the client where it is.
 */
export async function replacementCodeFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  spec: CodeFlowKind,
  type: FlowType,
  message: UiText,
): Promise<Flow> {
  regenerateCsrfSecret(request, reply, ctx.cookies);
  const flow = spec.build(ctx, request, reply, type);
  addMessage(flow.ui, { field: "", message });
  await insertFlow(ctx.db, flow);
  return flow;
}

function errorPolicy(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  spec: CodeFlowKind,
): FlowErrorPolicy {
  return {
    kind: spec.kind,
    uiPath: spec.uiPath,
    redirectStatus: 303,
    expiredMessageId: spec.expiredMessageId,
    expiredAnswer: "redirect-to-flow",
    sortOptions: undefined,
    async replace(old) {
      const replacement = spec.build(ctx, request, reply, old.type);
      replacement.requestUrl = old.requestUrl;
      replacement.returnTo = old.returnTo;
      replacement.locale = old.locale;
      await insertFlow(ctx.db, replacement);
      return replacement;
    },
  };
}

/**
 * A submission: the `?flow=` flow loaded (400 for a malformed id, 404 for an unknown one) and
 * checked for expiry, then `step`; any error is answered by the flow error policy (an expired flow
 * is replaced, a form error is shown in the flow).
 */
export async function submitCodeFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  spec: CodeFlowKind,
  step: (flow: Flow) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const notFound = () =>
    new HerodotError(404, {
      reason: `The ${spec.kind} request could not be found. Please restart the flow.`,
    });
  return withSubmittedFlow(
    ctx,
    request,
    reply,
    errorPolicy(ctx, request, reply, spec),
    notFound,
    (flow) => {
      ensureFlowValid(flow, ctx.now());
      return step(flow);
    },
  );
}

/**
 * A new code for the flow, in one transaction: its earlier codes stop working, `send` writes the
 * code and its message (or nothing, for an unknown address), and the flow is saved.
 */
export async function sendFlowCode(
  ctx: ServerContext,
  request: FastifyRequest,
  flow: Flow,
  send: (trx: Executor, requester: CodeRequester) => Promise<unknown>,
): Promise<void> {
  const requester = await codeRequesterOf(ctx, request, flow);
  await ctx.db.transaction().execute(async (trx) => {
    await deleteCodesOfFlow(trx, flow.id);
    await send(trx, requester);
    await updateFlow(trx, flow, ctx.now());
  });
}
