import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { csrfTokenFor } from "../http/csrf.ts";
import { secureRedirectTo } from "../http/return-to.ts";
import { localeFromAcceptLanguage } from "../text/locale.ts";
import type { Flow, FlowKind, FlowType } from "./flow.ts";

/** The URL the client called, as seen through the public base URL (Kratos' `request_url`). */
export function publicRequestUrl(ctx: ServerContext, request: FastifyRequest): string {
  return `${ctx.config.publicBaseUrl}${request.url}`;
}

/**
 * The common part of every new flow: id, lifespan, action URL, the request URL, a validated
 * `return_to` (400 self_service_flow_return_to_forbidden otherwise) and, for browser flows, the
 * anti-CSRF token (setting the cookie when the browser has none).
 */
export function newFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: FlowKind,
  type: FlowType,
  options: { requestUrl?: string; lifespanMs?: number; bindCsrfCookie?: boolean } = {},
): Flow {
  const now = ctx.now();
  const id = randomUUID();
  const requestUrl = options.requestUrl ?? publicRequestUrl(ctx, request);
  secureRedirectTo(ctx.returnToPolicy, { sourceUrl: requestUrl });
  const query = new URL(requestUrl).searchParams;
  const refresh = ["1", "t", "true"].includes((query.get("refresh") ?? "").toLowerCase());
  return {
    id,
    kind,
    type,
    state: "choose_method",
    requestUrl,
    returnTo: query.get("return_to") || undefined,
    ui: {
      action: `${ctx.config.publicBaseUrl}/self-service/${kind}?flow=${id}`,
      method: "POST",
      nodes: [],
    },
    // API flows get a token too (Kratos stores one) but it is never checked or rendered. Flows an
    // administrator creates are not tied to the administrator's (cookie-less) request either.
    csrfToken:
      type === "browser" && options.bindCsrfCookie !== false
        ? csrfTokenFor(request, reply, ctx.cookies)
        : "",
    internalContext: {},
    active: undefined,
    refresh,
    requestedAal: (query.get("aal") || "aal1").toLowerCase(),
    issuedAt: now,
    expiresAt: new Date(now.getTime() + (options.lifespanMs ?? ctx.config.flowLifespanMs)),
    createdAt: now,
    updatedAt: now,
    submitCount: 0,
    identityId: undefined,
    // Messages sent for this flow follow the language of the request that started it.
    locale: localeFromAcceptLanguage(request.headers["accept-language"]),
  };
}
