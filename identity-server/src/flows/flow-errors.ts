import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { isJsonRequest } from "../http/content-negotiation.ts";
import { gone, HerodotError } from "../http/errors.ts";
import { updateFlow } from "../store/flows.ts";
import { RateLimitedError, tooManyCodesId } from "../rate-limit/rate-limited-error.ts";
import { sendTooManyRequests } from "../rate-limit/too-many-requests.ts";
import { uiText } from "../text/messages.ts";
import { addMessage, resetMessages, sortNodes, type SortOptions } from "../ui/nodes.ts";
import { ValidationError } from "../ui/validation-error.ts";
import { forwardError } from "../selfservice/errors.ts";
import { sendError } from "../http/send-error.ts";
import { flowJson, type Flow, type FlowKind } from "../selfservice/flow.ts";

/** Submitting a flow after `expires_at` (Kratos' flow.ExpiredError). */
class FlowExpiredError extends Error {
  readonly expiredAt: Date;
  constructor(expiredAt: Date) {
    super("self-service flow expired");
    this.name = "FlowExpiredError";
    this.expiredAt = expiredAt;
  }
}

export function ensureFlowValid(flow: Flow, now: Date): void {
  if (flow.expiresAt < now) throw new FlowExpiredError(flow.expiresAt);
}

/** How one flow kind differs in error handling. */
export interface FlowErrorPolicy {
  kind: FlowKind;
  /** The UI page, e.g. "/login". */
  uiPath: string;
  /** 303 for login; Kratos answers registration form errors with 302. */
  redirectStatus: 302 | 303;
  expiredMessageId: number;
  /**
   * How JSON and API clients learn about the replacement of an expired flow: login, registration
   * and settings answer 410 with `use_flow_id`; recovery and verification redirect (303) to
   * `/self-service/<kind>/flows?id=<new>`.
   */
  expiredAnswer: "gone" | "redirect-to-flow";
  /** Recovery and verification keep their nodes in the order the strategy appended them. */
  sortOptions: SortOptions | undefined;
  /** A new flow of the same kind and type from the current request (keeps the old request_url). */
  replace(old: Flow): Promise<Flow>;
  /** The flow's JSON (settings flows embed their identity). */
  render?(flow: Flow): Promise<Record<string, unknown>>;
}

export function uiUrl(ctx: ServerContext, uiPath: string, flowId: string): string {
  return `${ctx.config.uiBaseUrl}${uiPath}?flow=${flowId}`;
}

/** `PUB/self-service/<kind>/flows?id=<id>`, where recovery and verification send JSON clients. */
export function flowFetchUrl(ctx: ServerContext, kind: FlowKind, flowId: string): string {
  return `${ctx.config.publicBaseUrl}/self-service/${kind}/flows?id=${flowId}`;
}

async function renderFlow(
  policy: Pick<FlowErrorPolicy, "render">,
  flow: Flow,
): Promise<Record<string, unknown>> {
  return policy.render ? policy.render(flow) : flowJson(flow);
}

/**
 * Turns an error during a flow into the answer Kratos gives: an expired flow is replaced (410 with
 * `use_flow_id`, or a redirect to the new flow); validation and 400 errors are rendered into the
 * flow (400 + flow JSON, or a redirect to the UI); anything else is forwarded as an error.
 */
export async function writeFlowError(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow | undefined,
  error: unknown,
  policy: FlowErrorPolicy,
): Promise<FastifyReply> {
  if (error instanceof RateLimitedError) {
    ctx.metrics.rateLimited(error.messageId === tooManyCodesId ? "codes" : "attempts");
  }
  // Strict mode: a limit answers as Ory Network's edge does (429), never as a message in the flow.
  if (error instanceof RateLimitedError && !ctx.config.oryExtensions) {
    return sendTooManyRequests(reply, error);
  }
  const json = isJsonRequest(request);
  if (!flow) return json ? sendError(reply, error) : forwardError(ctx, request, reply, error);

  if (error instanceof FlowExpiredError) {
    const now = ctx.now();
    const replacement = await policy.replace(flow);
    replacement.ui.messages = [
      ...(replacement.ui.messages ?? []),
      uiText(
        policy.expiredMessageId,
        {
          minutes_since_expired_at: ((now.getTime() - error.expiredAt.getTime()) / 60_000).toFixed(
            2,
          ),
        },
        {
          expired_at: error.expiredAt.toISOString(),
          expired_at_unix: Math.floor(error.expiredAt.getTime() / 1000),
        },
      ),
    ];
    await updateFlow(ctx.db, replacement, now);
    if (flow.type === "api" || json) {
      if (policy.expiredAnswer === "redirect-to-flow") {
        return reply.redirect(flowFetchUrl(ctx, policy.kind, replacement.id), 303);
      }
      const sinceMs = now.getTime() - error.expiredAt.getTime();
      return sendError(
        reply,
        gone({
          id: "self_service_flow_expired",
          message: "self-service flow expired",
          reason: `The self-service flow expired ${(sinceMs / 60_000).toFixed(2)} minutes ago, initialize a new one.`,
          extra: {
            expired_at: error.expiredAt.toISOString(),
            // Go encodes a time.Duration as integer nanoseconds.
            since: sinceMs * 1_000_000,
            use_flow_id: replacement.id,
          },
        }),
      );
    }
    return reply.redirect(uiUrl(ctx, policy.uiPath, replacement.id), 303);
  }

  resetMessages(flow.ui);
  if (error instanceof ValidationError) {
    for (const message of error.messages) addMessage(flow.ui, message);
  } else if (error instanceof HerodotError && error.id === "identity_disabled") {
    addMessage(flow.ui, { field: "", message: uiText(4010011) });
  } else if (error instanceof HerodotError && error.code === 400) {
    addMessage(flow.ui, {
      field: "",
      message: uiText(4000001, { reason: error.reason ?? error.message }),
    });
  } else {
    if (flow.type === "api") return sendError(reply, error);
    return forwardError(ctx, request, reply, error);
  }

  if (policy.sortOptions) flow.ui.nodes = sortNodes(flow.ui.nodes, policy.sortOptions);
  await updateFlow(ctx.db, flow, ctx.now());

  if (flow.type === "browser" && !json) {
    return reply.redirect(uiUrl(ctx, policy.uiPath, flow.id), policy.redirectStatus);
  }
  const status = error instanceof HerodotError ? error.code : 400;
  if (error instanceof RateLimitedError) reply.header("Retry-After", error.retryAfterSeconds);
  return reply.code(status).send(await renderFlow(policy, flow));
}
