import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { registerFlowRoutes } from "../register-flow-routes.ts";
import type { ServerContext } from "../../context.ts";
import { type ActiveSession } from "../../session/session-manager.ts";
import { alreadyLoggedInForLogin } from "../already-logged-in.ts";
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
import { AlreadyLoggedIn, createLoginFlow, type OAuth2Init } from "./create.ts";
import { submitLogin } from "./submit.ts";

async function acceptAtInit(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  challenge: string,
  active: ActiveSession,
): Promise<FastifyReply> {
  try {
    const redirectTo = await acceptLoginChallenge(ctx, challenge, active.session);
    return sendToOAuth2(request, reply, redirectTo);
  } catch (error) {
    return forwardError(ctx, request, reply, error);
  }
}

export function registerLoginRoutes(app: FastifyInstance, ctx: ServerContext): void {
  registerFlowRoutes(app, ctx, "login", {
    async browser(request, reply) {
      let oauth2: OAuth2Init | undefined;
      try {
        const challenge = loginChallengeOf(ctx, publicRequestUrl(ctx, request));
        if (challenge) oauth2 = { challenge, loginRequest: await readLoginRequest(ctx, challenge) };
        const flow = await createLoginFlow(ctx, request, reply, "browser", oauth2);
        return sendRedirectOrJson(
          request,
          reply,
          flow,
          `${ctx.config.uiBaseUrl}/login?flow=${flow.id}`,
        );
      } catch (error) {
        if (error instanceof AlreadyLoggedIn && oauth2) {
          // Only reached when the OAuth2 service may skip (else refresh was forced): the session
          // answers the login request at once.
          return acceptAtInit(ctx, request, reply, oauth2.challenge, error.active);
        }
        if (error instanceof AlreadyLoggedIn) {
          return sendAlreadyLoggedIn(
            ctx,
            request,
            reply,
            alreadyLoggedInForLogin(),
            error.requestUrl,
          );
        }
        return forwardError(ctx, request, reply, error);
      }
    },
    async api(request, reply) {
      try {
        return reply.send(flowJson(await createLoginFlow(ctx, request, reply, "api")));
      } catch (error) {
        return sendError(
          reply,
          error instanceof AlreadyLoggedIn ? alreadyLoggedInForLogin() : error,
        );
      }
    },
    submit: (request, reply) => submitLogin(ctx, request, reply),
  });
}
