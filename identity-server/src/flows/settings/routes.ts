import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { registerFlowRoutes } from "../register-flow-routes.ts";
import type { ServerContext } from "../../context.ts";
import { acceptsJson, isJsonRequest } from "../../http/content-negotiation.ts";
import { notFoundRow } from "../../http/errors.ts";
import { noActiveSession, sessionCredentialsMissing } from "../../session/errors.ts";
import { fetchSession, type ActiveSession } from "../../session/session-manager.ts";
import { findFlow, insertFlow } from "../../store/flows.ts";
import { forwardError } from "../../selfservice/errors.ts";
import { sendError } from "../../http/send-error.ts";
import { uiUrl } from "../flow-errors.ts";
import { isUuid } from "../../http/uuid-param.ts";
import type { Flow, FlowType } from "../../selfservice/flow.ts";
import { expiredFlowFetchError } from "../get-flow.ts";
import { buildSettingsFlow, renderSettingsFlow } from "./flow.ts";
import {
  identityMismatch,
  settingsAalError,
  answerAal2Required,
  submitSettings,
} from "./submit.ts";

/** Fetch and submit without a session: JSON 401 without an id, browsers 302 to the login UI. */
export function answerUnauthenticated(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (isJsonRequest(request)) return sendError(reply, sessionCredentialsMissing());
  return reply.redirect(`${ctx.config.uiBaseUrl}/login`, 302);
}

async function createSettingsFlow(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  active: ActiveSession,
  type: FlowType,
): Promise<Flow> {
  const flow = await buildSettingsFlow(ctx, ctx.db, request, reply, active.identity, type);
  await insertFlow(ctx.db, flow);
  return flow;
}

export function registerSettingsRoutes(app: FastifyInstance, ctx: ServerContext): void {
  registerFlowRoutes(app, ctx, "settings", {
    async browser(request, reply) {
      try {
        const active = await fetchSession(ctx, request);
        if (!active) {
          if (isJsonRequest(request)) return sendError(reply, noActiveSession());
          // Only the original return_to travels to the login (Kratos' TakeOverReturnToParameter).
          const login = new URL(`${ctx.config.publicBaseUrl}/self-service/login/browser`);
          const returnTo = (request.query as Record<string, string | undefined>).return_to;
          if (returnTo) login.searchParams.set("return_to", returnTo);
          return reply.redirect(login.toString(), 303);
        }
        const requestUrl = `${ctx.config.publicBaseUrl}${request.url}`;
        // Kratos sends the browser back here only when the init itself carried a return_to.
        const comeBack = new URL(requestUrl).searchParams.has("return_to") ? requestUrl : undefined;
        const aalError = settingsAalError(ctx, active, comeBack);
        if (aalError) return answerAal2Required(request, reply, aalError, "browser");
        const flow = await createSettingsFlow(ctx, request, reply, active, "browser");
        if (!acceptsJson(request)) return reply.redirect(uiUrl(ctx, "/settings", flow.id), 303);
        return reply.send(await renderSettingsFlow(ctx, flow));
      } catch (error) {
        return forwardError(ctx, request, reply, error);
      }
    },
    async api(request, reply) {
      try {
        const active = await fetchSession(ctx, request);
        if (!active) {
          throw noActiveSession(
            "This endpoint can only be accessed with a valid session. Please log in and try again.",
          );
        }
        const aalError = settingsAalError(ctx, active, undefined);
        if (aalError) throw aalError;
        const flow = await createSettingsFlow(ctx, request, reply, active, "api");
        return reply.send(await renderSettingsFlow(ctx, flow));
      } catch (error) {
        return sendError(reply, error);
      }
    },
    async flows(request, reply) {
      const active = await fetchSession(ctx, request);
      if (!active) return answerUnauthenticated(ctx, request, reply);
      const id = (request.query as Record<string, string | undefined>).id ?? "";
      const flow = isUuid(id) ? await findFlow(ctx.db, "settings", id.toLowerCase()) : undefined;
      if (!flow) return sendError(reply, notFoundRow());
      const aalError = settingsAalError(ctx, active, uiUrl(ctx, "/settings", flow.id));
      if (aalError) return sendError(reply, aalError);
      if (flow.identityId !== active.identity.id) {
        return sendError(
          reply,
          identityMismatch(
            "The request was made for another identity and has been blocked for security reasons.",
          ),
        );
      }
      if (flow.expiresAt < ctx.now()) {
        return sendError(reply, expiredFlowFetchError(ctx, flow, { withId: false }));
      }
      return reply.send(await renderSettingsFlow(ctx, flow));
    },
    submit: (request, reply) => submitSettings(ctx, request, reply),
  });

  // Password managers look here for where to change a password.
  app.get("/.well-known/change-password", async (_request, reply) =>
    reply.redirect(`${ctx.config.uiBaseUrl}/settings`, 303),
  );
}
