import type { FastifyReply } from "fastify";
import { isBrowserRequest, isJsonRequest } from "../../http/content-negotiation.ts";
import { identityJson } from "../../identity/identity.ts";
import { redirectBrowserTo, setOrySessionToken } from "../../selfservice/continue-with.ts";
import { issueSessionCookie } from "../../session/session-manager.ts";
import { sessionJson } from "../../session/session.ts";
import { acceptLoginChallenge } from "../oauth2-login-challenge.ts";
import type { LoginCompletion, LoginSession } from "../post-login/login-completion.ts";
import type { StartedVerification } from "../verification/flow.ts";

/**
 * The registration's answer (Kratos' session hook after registration, not the login's answer):
 * the new identity is in the body and `continue_with` carries the verification flow when one was
 * started, and the session token for API clients. A browser with an OAuth2 login challenge goes
 * back to the OAuth2 service, unless verification comes first (its flow accepts the challenge once
 * the address is verified).
 */
export async function answerRegistration(
  c: LoginCompletion,
  login: LoginSession,
  verification: StartedVerification | undefined,
  returnTo: string,
): Promise<FastifyReply> {
  const { ctx, request, reply, flow, identity, now } = c;
  const { session, token } = login;
  const base = ctx.config.publicBaseUrl;
  const identityBody = identityJson(identity, { publicBaseUrl: base });
  const sessionBody = sessionJson(session, identity, base, now);
  const showVerification = verification ? [verification.continueWith] : [];
  if (flow.type === "api") {
    return reply.send({
      session_token: token,
      session: sessionBody,
      identity: identityBody,
      continue_with: [...showVerification, setOrySessionToken(token)],
    });
  }
  await issueSessionCookie(ctx, request, reply, session, token);
  const challenge = flow.oauth2LoginChallenge;
  const oauth2RedirectTo =
    challenge && !verification ? await acceptLoginChallenge(ctx, challenge, session) : undefined;
  if (isJsonRequest(request)) {
    // Kratos adds redirect_browser_to before the post-registration hooks run.
    return reply.send({
      session: sessionBody,
      identity: identityBody,
      continue_with: [redirectBrowserTo(oauth2RedirectTo ?? returnTo), ...showVerification],
    });
  }
  const verificationUrl = verification?.continueWith.flow.url;
  if (verificationUrl && isBrowserRequest(request)) return reply.redirect(verificationUrl, 303);
  return reply.redirect(oauth2RedirectTo ?? returnTo, 303);
}
