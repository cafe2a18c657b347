import type { FastifyReply } from "fastify";
import { csrfTokenFor, regenerateCsrfSecret } from "../../http/csrf.ts";
import { secureRedirectTo } from "../../http/return-to.ts";
import { DuplicateIdentityError, insertIdentity } from "../../store/identities.ts";
import { uiText } from "../../text/messages.ts";
import { csrfNode, setTraitValues, upsertNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { requireActiveIdentity } from "../post-login/active-identity.ts";
import type { LoginCompletion } from "../post-login/login-completion.ts";
import { startLoginSession } from "../post-login/login-session.ts";
import { persistLogin } from "../post-login/persist-login.ts";
import { startVerification, type StartedVerification } from "../verification/flow.ts";
import { answerRegistration } from "./answer.ts";

/**
 * Kratos' PostRegistrationHook with the `session` hook on: the new identity is signed in through
 * the post-login hooks (flows/post-login/: active identity, a session started with the strategy's
 * aal1 factor, one transaction) with the identity stored before the session and the verification
 * flow of the first unverified address (Kratos' verification hook) started after it; the answer
 * (answer.ts) carries `continue_with` and any OAuth2 login challenge.
 */
export async function completeRegistration(c: LoginCompletion): Promise<FastifyReply> {
  const { ctx, request, reply, flow, identity } = c;
  requireActiveIdentity(identity);
  const returnTo = secureRedirectTo(ctx.returnToPolicy, {
    returnTo: flow.returnTo,
    sourceUrl: flow.requestUrl,
  });
  const login = startLoginSession(c);
  // A new identity gets a new anti-CSRF secret; do it now so that the verification flow the hook
  // creates carries a token for the cookie this answer sets.
  if (flow.type === "browser") regenerateCsrfSecret(request, reply, ctx.cookies);
  let verification: StartedVerification | undefined;
  try {
    verification = await persistLogin(c, login, {
      before: (trx) => insertIdentity(trx, identity),
      // show_verification_ui: the first unverified address gets a code.
      after: (trx) =>
        startVerification(
          trx,
          ctx,
          request,
          reply,
          flow,
          identity,
          (a) => !a.verified,
          login.session,
        ),
    });
  } catch (error) {
    flow.active = undefined;
    if (error instanceof DuplicateIdentityError) {
      setTraitValues(flow.ui, identity.traits);
      if (flow.type === "browser") {
        upsertNode(flow.ui, csrfNode(csrfTokenFor(request, reply, ctx.cookies)));
      }
      throw ValidationError.of("", uiText(4000007));
    }
    throw error;
  }
  return answerRegistration(c, login, verification, returnTo);
}
