import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { isJsonRequest } from "../http/content-negotiation.ts";
import { HerodotError } from "../http/errors.ts";
import type { FlowBody } from "../http/flow-body.ts";
import { secureRedirectTo } from "../http/return-to.ts";
import type { Identity } from "../identity/identity.ts";
import { hasSecondFactor } from "../identity/second-factors.ts";
import { aal2LoginUrl, satisfiesAal } from "../session/aal-policy.ts";
import {
  activateSession,
  addAuthenticationMethod,
  issueSessionCookie,
  newSession,
  persistSession,
  type ActiveSession,
} from "../session/session-manager.ts";
import { sessionJson, type AuthenticationMethod } from "../session/session.ts";
import { updateFlow, updateFlowActiveMethod } from "../store/flows.ts";
import { trustDevice, trustedDeviceOf } from "../trusted-devices/device-trust.ts";
import { setTrustedDeviceCookie } from "../trusted-devices/trusted-device-cookie.ts";
import { sendError } from "./errors.ts";
import type { Flow } from "./flow.ts";
import {
  acceptLoginChallenge,
  browserLocationChangeRequired,
  sendToOAuth2,
} from "./oauth2-login-challenge.ts";
import { refuseUnverifiedLogin } from "./require-verified-address.ts";

/** The factor a login strategy just verified, as it goes into the session's AMR. */
export type CompletedFactor = Pick<AuthenticationMethod, "method" | "aal">;

/**
 * How a trusted device shows in the AMR. The OpenAPI enum of methods has no "trusted device", so
 * it is `deviceauthn` (authentication by a device) at aal2, named by `provider: trusted_device`.
 */
export const trustedDeviceFactor = {
  method: "deviceauthn",
  aal: "aal2",
  provider: "trusted_device",
} as const;

function trustRequested(body: FlowBody): boolean {
  return body.fields([{ name: "trust_device", type: "boolean" }]).trust_device === true;
}

/**
 * Kratos' PostLoginHook after any factor: the session is (re)activated with the factor, a trusted
 * browser completes the second factor of a first-factor login, a second factor with
 * `trust_device` ticked trusts the browser, and the answer follows the AAL policy: a session still
 * short of the identity's second factor is issued but sent to the aal2 login (HTML 303, JSON 422
 * `browser_location_change_required`, API 200 without the identity). A login that answers an OAuth2
 * login challenge accepts it once the AAL is met and sends the browser back to the OAuth2 service.
 */
export async function completeLogin(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  body: FlowBody,
  identity: Identity,
  existing: ActiveSession | undefined,
  factor: CompletedFactor,
): Promise<FastifyReply> {
  if (identity.state !== "active") {
    throw new HerodotError(400, {
      id: "identity_disabled",
      message: "identity is disabled",
      reason: "This account was disabled.",
    });
  }
  if (factor.aal === "aal1") {
    if (await refuseUnverifiedLogin(ctx, request, reply, flow, identity)) return reply;
  }
  const now = ctx.now();
  const reused = existing && existing.identity.id === identity.id;
  const { session, token } = reused ? existing : newSession(identity.id, now);
  activateSession(ctx, request, session, factor);

  // Trusted devices are ours: in strict mode no cookie skips the second factor and none is set.
  const trustable = flow.type === "browser" && ctx.config.oryExtensions;
  if (
    trustable &&
    factor.aal === "aal1" &&
    session.aal !== "aal2" &&
    hasSecondFactor(identity, ctx.config.secondFactor) &&
    (await trustedDeviceOf(ctx, request, identity.id))
  ) {
    // Only the second factor is skipped: the password was just checked.
    addAuthenticationMethod(session, trustedDeviceFactor, now);
  }
  const wantsTrust = trustable && factor.aal === "aal2" && trustRequested(body);

  const returnTo = secureRedirectTo(ctx.returnToPolicy, {
    returnTo: flow.returnTo,
    sourceUrl: flow.requestUrl,
  });
  flow.active = factor.method;
  const trusted = await ctx.db.transaction().execute(async (trx) => {
    // The password strategy leaves the stored flow as it was, but for the active method.
    if (factor.method === "password") await updateFlowActiveMethod(trx, flow, now);
    else await updateFlow(trx, flow, now);
    await persistSession(trx, session, token, { isNew: !reused });
    return wantsTrust ? trustDevice(ctx, trx, request, identity.id) : undefined;
  });

  const aalMet = satisfiesAal(ctx, session, identity, ctx.config.secondFactor.whoamiRequiredAal);
  if (flow.type === "api") {
    // Kratos leaves the identity out until the second factor is done.
    const body = sessionJson(session, aalMet ? identity : undefined, ctx.config.publicBaseUrl, now);
    return reply.send({ session_token: token, session: body, continue_with: null });
  }
  await issueSessionCookie(ctx, request, reply, session, token);
  if (trusted) {
    const maxAge = Math.floor(ctx.config.secondFactor.trustedDeviceLifespanMs / 1000);
    setTrustedDeviceCookie(reply, ctx.cookies, trusted.token, maxAge);
  }
  const query = new URL(flow.requestUrl).searchParams;
  const secondFactorUrl = aalMet
    ? undefined
    : aal2LoginUrl(ctx, {
        returnTo: query.get("return_to") ?? undefined,
        loginChallenge: query.get("login_challenge") ?? undefined,
      });
  if (!secondFactorUrl && flow.oauth2LoginChallenge) {
    const redirectTo = await acceptLoginChallenge(ctx, flow.oauth2LoginChallenge, session);
    return sendToOAuth2(request, reply, redirectTo);
  }
  if (isJsonRequest(request)) {
    if (secondFactorUrl) return sendError(reply, browserLocationChangeRequired(secondFactorUrl));
    return reply.send({
      session: sessionJson(session, identity, ctx.config.publicBaseUrl, now),
      continue_with: [{ action: "redirect_browser_to", redirect_browser_to: returnTo }],
    });
  }
  return reply.redirect(secondFactorUrl ?? returnTo, 303);
}
