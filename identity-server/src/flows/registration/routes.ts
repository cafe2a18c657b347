import type { FastifyInstance } from "fastify";
import { registerFlowRoutes } from "../register-flow-routes.ts";
import type { ServerContext } from "../../context.ts";
import { isJsonRequest } from "../../http/content-negotiation.ts";
import { fetchSession } from "../../session/session-manager.ts";
import { alreadyLoggedInForRegistration } from "../already-logged-in.ts";
import { forwardError } from "../../selfservice/errors.ts";
import { sendError } from "../../http/send-error.ts";
import { flowJson } from "../../selfservice/flow.ts";
import { sendAlreadyLoggedIn, sendRedirectOrJson } from "../flow-responses.ts";
import { publicRequestUrl } from "../../selfservice/new-flow.ts";
import {
  acceptLoginChallenge,
  loginChallengeOf,
  readLoginRequest,
  sendToOAuth2,
} from "../oauth2-login-challenge.ts";
import { createRegistrationFlow } from "./create.ts";
import { submitRegistration } from "./submit.ts";

export function registerRegistrationRoutes(app: FastifyInstance, ctx: ServerContext): void {
  registerFlowRoutes(app, ctx, "registration", {
    async browser(request, reply) {
      try {
        const requestUrl = publicRequestUrl(ctx, request);
        const challenge = loginChallengeOf(ctx, requestUrl);
        const oauth2 = challenge
          ? { challenge, loginRequest: await readLoginRequest(ctx, challenge) }
          : undefined;
        const active = await fetchSession(ctx, request);
        if (active && oauth2) {
          if (oauth2.loginRequest.skip) {
            const redirectTo = await acceptLoginChallenge(ctx, oauth2.challenge, active.session);
            return sendToOAuth2(request, reply, redirectTo);
          }
          // The OAuth2 service wants the user to sign in again: that is the login flow's job.
          const login = new URL(`${ctx.config.publicBaseUrl}/self-service/login/browser`);
          login.search = new URL(requestUrl).search;
          return reply.redirect(login.href, 302);
        }
        if (active) {
          const requestUrl = `${ctx.config.publicBaseUrl}${request.url}`;
          if (isJsonRequest(request)) return sendError(reply, alreadyLoggedInForRegistration());
          return sendAlreadyLoggedIn(
            ctx,
            request,
            reply,
            alreadyLoggedInForRegistration(),
            requestUrl,
          );
        }
        const flow = await createRegistrationFlow(ctx, request, reply, "browser", oauth2);
        return sendRedirectOrJson(
          request,
          reply,
          flow,
          `${ctx.config.uiBaseUrl}/registration?flow=${flow.id}`,
        );
      } catch (error) {
        return forwardError(ctx, request, reply, error);
      }
    },
    async api(request, reply) {
      if (await fetchSession(ctx, request))
        return sendError(reply, alreadyLoggedInForRegistration());
      try {
        return reply.send(flowJson(await createRegistrationFlow(ctx, request, reply, "api")));
      } catch (error) {
        return sendError(reply, error);
      }
    },
    submit: (request, reply) => submitRegistration(ctx, request, reply),
  });
}
