import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { csrfTokenFor } from "../../http/csrf.ts";
import { secureRedirectTo } from "../../http/return-to.ts";
import type { Identity, VerifiableAddress } from "../../identity/identity.ts";
import { sendVerificationCodeTo } from "../../methods/code/send-code.ts";
import { codeRequesterOf } from "../../rate-limit/code-requester.ts";
import { showVerificationCodeForm } from "../../methods/code/verification-nodes.ts";
import { insertFlow } from "../../store/flows.ts";
import type { Executor } from "../../store/schema.ts";
import type { Session } from "../../session/session.ts";
import {
  showVerificationUi,
  type ContinueWithVerificationUi,
} from "../../selfservice/continue-with.ts";
import { uiUrl } from "../flow-errors.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { newFlow } from "../../selfservice/new-flow.ts";
import type { CodeFlowKind } from "../code-flow.ts";
import { verificationStrategies } from "./strategies.ts";

/** A browser flow's anti-CSRF token; verification flows of native apps carry none. */
export function verificationCsrfToken(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
): string | undefined {
  return flow.type === "browser" ? csrfTokenFor(request, reply, ctx.cookies) : undefined;
}

export const verificationFlows: CodeFlowKind = {
  kind: "verification",
  uiPath: "/verification",
  expiredMessageId: 4070005,
  notResponsibleMessageId: 4010006,
  strategies: () => verificationStrategies(),
};

/** Where the "continue" link of a finished verification points: its return_to, else the default. */
export function verificationContinueUrl(ctx: ServerContext, flow: Flow): string {
  try {
    return secureRedirectTo(ctx.returnToPolicy, { sourceUrl: flow.requestUrl });
  } catch {
    return ctx.config.defaultReturnUrl;
  }
}

/**
 * The request URL a hook-made verification flow inherits from the flow that caused it, with
 * `after_verification_return_to` becoming its `return_to` (Kratos' NewPostHookFlow).
 */
function inheritedRequestUrl(origin: Flow): string {
  try {
    const url = new URL(origin.requestUrl);
    const after = url.searchParams.get("after_verification_return_to");
    if (after) url.searchParams.set("return_to", after);
    url.searchParams.delete("after_verification_return_to");
    return url.toString();
  } catch {
    return origin.requestUrl;
  }
}

/** Where a verification flow keeps the session its OAuth2 login challenge is accepted with. */
export const oauth2SessionKey = "oauth2_login_session_id";

export interface StartedVerification {
  flow: Flow;
  address: VerifiableAddress;
  continueWith: ContinueWithVerificationUi;
}

/**
 * Kratos' verification hook: for the first of the identity's addresses that `needsCode` picks, a
 * verification flow is created already in `sent_email`, a code is sent and the address becomes
 * "sent". Run it in the transaction that stores what caused it; returns what to show next.
 */
export async function startVerification(
  db: Executor,
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  origin: Flow,
  identity: Identity,
  needsCode: (address: VerifiableAddress) => boolean,
  loginSession?: Session,
): Promise<StartedVerification | undefined> {
  const address = identity.verifiableAddresses.find((a) => a.value !== "" && needsCode(a));
  if (!address) return undefined;
  const flow = newFlow(ctx, request, reply, "verification", origin.type);
  flow.requestUrl = inheritedRequestUrl(origin);
  flow.returnTo = new URL(flow.requestUrl).searchParams.get("return_to") || undefined;
  flow.locale = origin.locale;
  flow.identityId = identity.id;
  flow.active = "code";
  flow.state = "sent_email";
  if (origin.oauth2LoginChallenge && loginSession) {
    // Kratos' verification hook after registration: the verification flow answers the OAuth2
    // login challenge with the new session once the address is verified.
    flow.oauth2LoginChallenge = origin.oauth2LoginChallenge;
    flow.internalContext[oauth2SessionKey] = loginSession.id;
  }
  showVerificationCodeForm(
    flow,
    verificationCsrfToken(ctx, request, reply, flow),
    { name: address.via, address: address.value },
    address.via,
  );
  await insertFlow(db, flow);
  // The requester is read from the request that caused the send: the signed-in person changing
  // an address in settings has a session (and usually a device cookie) of the account.
  const requester = await codeRequesterOf(ctx, request, flow, db);
  await sendVerificationCodeTo(db, ctx, requester, flow, identity.id, address);
  const url = flow.type === "browser" ? uiUrl(ctx, "/verification", flow.id) : undefined;
  return { flow, address, continueWith: showVerificationUi(flow.id, address.value, url) };
}
