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
import { uiText, type UiText } from "../text/messages.ts";
import { addMessage, type NodeGroup } from "../ui/nodes.ts";
import { ValidationError } from "../ui/validation-error.ts";
import { FlowBody } from "../http/flow-body.ts";
import type { MethodStep } from "../methods/method-step.ts";
import { newFlow } from "../selfservice/new-flow.ts";
import { ensureFlowValid, type FlowErrorPolicy } from "./flow-errors.ts";

/**
 * One way to prove an address in recovery or verification (Kratos' recovery.Strategy and
 * verification.Strategy): `code` today; a link method would be one more entry in a kind's
 * `strategies`. The same shape as the login and registration strategies.
 */
export interface CodeFlowStrategy {
  /** The method, stored as the flow's active method. */
  readonly id: string;
  /** The node group of its form. */
  readonly group: NodeGroup;
  /** Whether the submission to this flow is for this strategy. */
  responsible(body: FlowBody, flow: Flow): boolean;
  /** Adds its first form (asking for the address) to a new flow. */
  populate(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, flow: Flow): void;
  /** Handles a submission it is responsible for, answering it. */
  submit(step: MethodStep): Promise<FastifyReply>;
}

/**
 * Recovery and verification are one kind of flow: an address is typed in, something is sent to
 * it, and what was sent is checked. What differs is declared here; the skeleton (creating,
 * loading, expiring, choosing the strategy, sending a code) is written once below.
 */
export interface CodeFlowKind {
  kind: "recovery" | "verification";
  /** The UI page, e.g. "/recovery". */
  uiPath: string;
  /** The message a replaced expired flow carries (4060005, 4070005). */
  expiredMessageId: number;
  /** The form error when no strategy is responsible for a submission (4010005, 4010006). */
  notResponsibleMessageId: number;
  /** The kind's strategies, in order (a function: they import the kind's own modules). */
  strategies(): readonly CodeFlowStrategy[];
}

/** A new flow of the kind with every strategy's form; not yet stored. */
function buildCodeFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  spec: CodeFlowKind,
  type: FlowType,
): Flow {
  const flow = newFlow(ctx, request, reply, spec.kind, type);
  for (const strategy of spec.strategies()) strategy.populate(ctx, request, reply, flow);
  return flow;
}

/** A new flow of the kind, stored. */
export async function startCodeFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  spec: CodeFlowKind,
  type: FlowType,
): Promise<Flow> {
  const flow = buildCodeFlow(ctx, request, reply, spec, type);
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
  const flow = buildCodeFlow(ctx, request, reply, spec, type);
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
      const replacement = buildCodeFlow(ctx, request, reply, spec, old.type);
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
 * checked for expiry, the body read once, then the first responsible strategy; any error is answered by the flow error policy (an expired flow
 * is replaced, a form error is shown in the flow).
 */
export async function submitCodeFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  spec: CodeFlowKind,
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
    async (flow) => {
      ensureFlowValid(flow, ctx.now());
      const body = await FlowBody.read(request);
      const strategy = spec.strategies().find((s) => s.responsible(body, flow));
      if (!strategy) throw ValidationError.of("", uiText(spec.notResponsibleMessageId));
      return strategy.submit({ ctx, request, reply, flow, body });
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
