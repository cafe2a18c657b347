import type { FastifyReply } from "fastify";
import { secureRedirectTo } from "../../http/return-to.ts";
import { requireActiveIdentity } from "../post-login/active-identity.ts";
import { answerLogin } from "../post-login/answer-login.ts";
import { applyDeviceTrust, trustWrites } from "../post-login/device-trust.ts";
import type { LoginCompletion } from "../post-login/login-completion.ts";
import { startLoginSession } from "../post-login/login-session.ts";
import { persistLogin } from "../post-login/persist-login.ts";
import { refuseUnverifiedLogin } from "../require-verified-address.ts";

/**
 * Kratos' PostLoginHook after any factor, as a sequence of hooks (flows/post-login/): the identity
 * must be active, a first factor may be refused for an unverified address, the session is
 * carried on or started, device trust is applied, everything is stored in one transaction, and the
 * answer follows the AAL policy and any OAuth2 login challenge.
 */
export async function completeLogin(c: LoginCompletion): Promise<FastifyReply> {
  const { ctx, request, reply, flow, identity } = c;
  requireActiveIdentity(identity);
  if (c.factor.aal === "aal1") {
    if (await refuseUnverifiedLogin(ctx, request, reply, flow, identity)) return reply;
  }
  const login = startLoginSession(c);
  const wantsTrust = await applyDeviceTrust(c, login.session);
  // Checked before anything is stored: a return_to that is not allowed fails the login.
  const returnTo = secureRedirectTo(ctx.returnToPolicy, {
    returnTo: flow.returnTo,
    sourceUrl: flow.requestUrl,
  });
  const trusted = await persistLogin(c, login, trustWrites(c, wantsTrust));
  return answerLogin(c, login, trusted, returnTo);
}
