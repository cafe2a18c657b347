import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { acceptsJson } from "../http/content-negotiation.ts";
import { HerodotError } from "../http/errors.ts";
import { secureRedirectTo } from "../http/return-to.ts";
import { sendError } from "../http/send-error.ts";
import { flowJson, type Flow } from "../selfservice/flow.ts";
import { sortNodes, type SortOptions } from "../ui/nodes.ts";

/** Kratos' SendFlowCompletedAsRedirectOrJSON: 303 for browsers, the JSON (or error) otherwise. */
export function sendRedirectOrJson(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Flow | HerodotError,
  redirectTo: string,
): FastifyReply {
  if (!acceptsJson(request)) return reply.redirect(redirectTo, 303);
  if (body instanceof HerodotError) return sendError(reply, body);
  return reply.send(flowJson(body));
}

/** Answers "already signed in" at a browser init: JSON error, or a redirect to return_to. */
export function sendAlreadyLoggedIn(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  error: HerodotError,
  requestUrl: string,
): FastifyReply {
  const returnTo = secureRedirectTo(ctx.returnToPolicy, { sourceUrl: requestUrl });
  return sendRedirectOrJson(request, reply, error, returnTo);
}

export function sorted(flow: Flow, options: SortOptions): Flow {
  flow.ui.nodes = sortNodes(flow.ui.nodes, options);
  return flow;
}
