import type { FastifyReply } from "fastify";
import { isJsonRequest } from "../../http/content-negotiation.ts";
import { aal2LoginUrl, satisfiesAal } from "../../session/aal-policy.ts";
import { issueSessionCookie } from "../../session/session-manager.ts";
import { sessionJson } from "../../session/session.ts";
import { setTrustedDeviceCookie } from "../../trusted-devices/trusted-device-cookie.ts";
import { sendError } from "../../http/send-error.ts";
import {
  acceptLoginChallenge,
  browserLocationChangeRequired,
  sendToOAuth2,
} from "../oauth2-login-challenge.ts";
import type { LoginCompletion, LoginSession } from "./login-completion.ts";
import type { TrustedDevice } from "./device-trust.ts";

/** Where a browser whose session is still short of the identity's second factor is sent. */
function secondFactorUrl(c: LoginCompletion): string {
  const query = new URL(c.flow.requestUrl).searchParams;
  return aal2LoginUrl(c.ctx, {
    returnTo: query.get("return_to") ?? undefined,
    loginChallenge: query.get("login_challenge") ?? undefined,
  });
}

/**
 * The answer follows the AAL policy: a session still short of the identity's second factor is
 * issued but sent to the aal2 login (HTML 303, JSON 422 `browser_location_change_required`, API
 * 200 without the identity). A login that answers an OAuth2 login challenge accepts it once the
 * AAL is met and sends the browser back to the OAuth2 service.
 */
export async function answerLogin(
  c: LoginCompletion,
  login: LoginSession,
  trusted: TrustedDevice | undefined,
  returnTo: string,
): Promise<FastifyReply> {
  const { ctx, request, reply, flow, identity, now } = c;
  const { session, token } = login;
  const base = ctx.config.publicBaseUrl;
  const aalMet = satisfiesAal(ctx, session, identity, ctx.config.secondFactor.whoamiRequiredAal);
  if (flow.type === "api") {
    // Kratos leaves the identity out until the second factor is done.
    const body = sessionJson(session, aalMet ? identity : undefined, base, now);
    return reply.send({ session_token: token, session: body, continue_with: null });
  }
  await issueSessionCookie(ctx, request, reply, session, token);
  if (trusted) {
    const maxAge = Math.floor(ctx.config.secondFactor.trustedDeviceLifespanMs / 1000);
    setTrustedDeviceCookie(reply, ctx.cookies, trusted.token, maxAge);
  }
  const aal2Url = aalMet ? undefined : secondFactorUrl(c);
  if (!aal2Url && flow.oauth2LoginChallenge) {
    const redirectTo = await acceptLoginChallenge(ctx, flow.oauth2LoginChallenge, session);
    return sendToOAuth2(request, reply, redirectTo);
  }
  if (isJsonRequest(request)) {
    if (aal2Url) return sendError(reply, browserLocationChangeRequired(aal2Url));
    return reply.send({
      session: sessionJson(session, identity, base, now),
      continue_with: [{ action: "redirect_browser_to", redirect_browser_to: returnTo }],
    });
  }
  return reply.redirect(aal2Url ?? returnTo, 303);
}
