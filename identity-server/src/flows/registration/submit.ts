import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { withSubmittedFlow } from "../submitted-flow.ts";
import { isBrowserRequest, isJsonRequest } from "../../http/content-negotiation.ts";
import { csrfTokenFor, regenerateCsrfSecret } from "../../http/csrf.ts";
import { notFoundRow } from "../../http/errors.ts";
import { secureRedirectTo } from "../../http/return-to.ts";
import { FlowBody } from "../../http/flow-body.ts";
import { registrationStrategies } from "../../methods/registration-strategies.ts";
import {
  activateSession,
  fetchSession,
  issueSessionCookie,
  newSession,
  persistSession,
} from "../../session/session-manager.ts";
import { sessionJson } from "../../session/session.ts";
import { updateFlow } from "../../store/flows.ts";
import { DuplicateIdentityError, insertIdentity } from "../../store/identities.ts";
import { identityJson } from "../../identity/identity.ts";
import { uiText } from "../../text/messages.ts";
import { csrfNode, setTraitValues, upsertNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { alreadyLoggedInForRegistration } from "../already-logged-in.ts";
import { redirectBrowserTo, setOrySessionToken } from "../../selfservice/continue-with.ts";
import { sendError } from "../../http/send-error.ts";
import { ensureFlowValid, type FlowErrorPolicy } from "../flow-errors.ts";
import { acceptLoginChallenge, renderWithLoginRequest } from "../oauth2-login-challenge.ts";
import { startVerification, type StartedVerification } from "../verification/flow.ts";
import { registrationSort, createRegistrationFlow } from "./create.ts";

function errorPolicy(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): FlowErrorPolicy {
  return {
    kind: "registration",
    uiPath: "/registration",
    redirectStatus: 302,
    expiredMessageId: 4040001,
    expiredAnswer: "gone",
    sortOptions: registrationSort(ctx),
    async replace(old) {
      const replacement = await createRegistrationFlow(ctx, request, reply, old.type);
      replacement.requestUrl = old.requestUrl;
      replacement.returnTo = old.returnTo;
      replacement.oauth2LoginChallenge = old.oauth2LoginChallenge;
      return replacement;
    },
    render: (flow) => renderWithLoginRequest(ctx, flow),
  };
}

export async function submitRegistration(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const policy = errorPolicy(ctx, request, reply);
  // Kratos guards the whole endpoint: with a session, browsers are sent on, others get 400.
  if (await fetchSession(ctx, request)) {
    if (isJsonRequest(request)) return sendError(reply, alreadyLoggedInForRegistration());
    return reply.redirect(secureRedirectTo(ctx.returnToPolicy, { sourceUrl: undefined }), 302);
  }
  return withSubmittedFlow(ctx, request, reply, policy, notFoundRow, async (flow) => {
    ensureFlowValid(flow, ctx.now());
    // The one read of the submission: the responsible strategy decodes its fields from it.
    const body = await FlowBody.read(request);
    const strategy = registrationStrategies().find((s) => s.responsible(body));
    if (!strategy) throw ValidationError.of("", uiText(4010003));
    const identity = await strategy.submit({ ctx, request, reply, flow, body });

    const returnTo = secureRedirectTo(ctx.returnToPolicy, {
      returnTo: flow.returnTo,
      sourceUrl: flow.requestUrl,
    });
    // The `session` after-registration hook is on: sign the new identity in right away.
    const { session, token } = newSession(identity.id, ctx.now());
    activateSession(ctx, request, session, { method: strategy.id, aal: "aal1" });
    flow.active = strategy.id;
    // A new identity gets a new anti-CSRF secret; do it now so that the verification flow the hook
    // creates carries a token for the cookie this answer sets.
    if (flow.type === "browser") regenerateCsrfSecret(request, reply, ctx.cookies);
    let verification: StartedVerification | undefined;
    try {
      verification = await ctx.db.transaction().execute(async (trx) => {
        await insertIdentity(trx, identity);
        await persistSession(trx, session, token);
        await updateFlow(trx, flow, ctx.now());
        // Kratos' auto verification hook, then show_verification_ui: the first unverified address
        // gets a code and the client is told where to enter it.
        return startVerification(
          trx,
          ctx,
          request,
          reply,
          flow,
          identity,
          (address) => !address.verified,
          session,
        );
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

    const base = ctx.config.publicBaseUrl;
    const now = ctx.now();
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
    // With an OAuth2 login challenge the login request is accepted now, unless the verification
    // flow (which carries the challenge) accepts it once the address is verified.
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
  });
}
