import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { isJsonRequest } from "../http/content-negotiation.ts";
import { HerodotError } from "../http/errors.ts";
import { UsedChallengeError } from "../oauth2/challenges/interactions.ts";
import type { OAuth2LoginRequest } from "../oauth2/challenges/login-requests.ts";
import { HydraError } from "../oauth2/hydra-error.ts";
import type { OAuth2LoginRequests } from "../oauth2/oauth2-service.ts";
import type { Session } from "../session/session.ts";
import { sendError } from "../http/send-error.ts";
import { flowJson, type Flow } from "../selfservice/flow.ts";

// Kratos' hydra/hydra.go, with the OAuth2 service called in-process instead of over Hydra's admin
// API: the flows read the login request behind `login_challenge` and accept it once a session
// satisfies it. Errors are shaped as Kratos turns Hydra's answers into herodot errors.

/** Kratos' ErrMisconfiguration: a challenge arrived but no OAuth2 provider is configured. */
function oauth2NotConfigured(): HerodotError {
  return new HerodotError(500, {
    id: "invalid_configuration",
    message: "Invalid configuration",
    reason:
      "refusing to parse login_challenge query parameter because oauth2_provider.url is invalid or unset",
  });
}

function oauth2Service(ctx: ServerContext): OAuth2LoginRequests {
  if (!ctx.oauth2) throw oauth2NotConfigured();
  return ctx.oauth2;
}

/**
 * The status and hint Kratos' Hydra client reports for a failed call. A used challenge is Hydra's
 * 410 (its body is a redirect, not an OAuth2 error, so no hint).
 */
function upstreamDetails(error: unknown): Record<string, unknown> | undefined {
  if (error instanceof UsedChallengeError) return { status_code: 410 };
  if (error instanceof HydraError) return { status_code: error.status, oauth2_error_hint: "" };
  return undefined;
}

/**
 * Kratos' GetLoginChallengeID: the `login_challenge` of a URL, undefined without one; present but
 * empty is 400, present without an OAuth2 service is 500 `invalid_configuration`.
 */
export function loginChallengeOf(ctx: ServerContext, url: string): string | undefined {
  const query = new URL(url).searchParams;
  if (!query.has("login_challenge")) return undefined;
  oauth2Service(ctx);
  const challenge = query.get("login_challenge") ?? "";
  if (challenge === "") {
    throw new HerodotError(400, { reason: "the login_challenge parameter is present but empty" });
  }
  return challenge;
}

/**
 * Kratos decodes Hydra's answer into the Go client's model and encodes it again; every field there
 * is `omitempty`, so Hydra's `null`s (unset token lifespans…) disappear, as the Kratos spec expects.
 */
function withoutNulls(client: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(client).filter(([, value]) => value !== null));
}

/**
 * Kratos' GetLoginRequest: an unknown, expired or already used challenge is a 400 (500 when the
 * service itself failed), with the service's status in `details.status_code`.
 */
export async function readLoginRequest(
  ctx: ServerContext,
  challenge: string,
): Promise<OAuth2LoginRequest> {
  const service = oauth2Service(ctx);
  try {
    const loginRequest = await service.getLoginRequest(challenge);
    return { ...loginRequest, client: withoutNulls(loginRequest.client) };
  } catch (error) {
    const details = upstreamDetails(error);
    const status = details && Number(details.status_code) < 500 ? 400 : 500;
    throw new HerodotError(status, {
      reason: "Unable to get OAuth 2.0 Login Challenge.",
      ...(details ? { details } : {}),
    });
  }
}

/**
 * Kratos' AcceptLoginRequest for a session that satisfies the login: the identity is the subject,
 * the session is remembered for its lifespan (our session cookie is always persistent, Kratos'
 * `session.cookie.persistent` default) and its AMR method names go along, each once. Returns where the
 * browser continues (the OAuth2 service's `redirect_to`).
 */
export async function acceptLoginChallenge(
  ctx: ServerContext,
  challenge: string,
  session: Session,
): Promise<string> {
  const service = oauth2Service(ctx);
  try {
    const methods = session.authenticationMethods.map((m) => m.method);
    const { redirect_to } = await service.acceptLoginRequest(challenge, {
      subject: session.identityId,
      identity_provider_session_id: session.id,
      remember: true,
      remember_for: Math.floor(ctx.config.sessionLifespanMs / 1000),
      ...(ctx.config.oryExtensions
        ? {
            // Kratos sends one entry per completed authentication (hydra/hydra.go
            // AcceptLoginRequest), so a refresh with the same password repeated it: each method
            // once (README differences).
            amr: [...new Set(methods)],
            // Not sent by Kratos; lets the relying party see the assurance level.
            acr: session.aal,
          }
        : // Strict mode: exactly Kratos' accept (no acr, every authentication's method).
          { amr: methods }),
    });
    return redirect_to;
  } catch (error) {
    const details = upstreamDetails(error);
    throw new HerodotError(500, {
      reason: "Unable to accept OAuth 2.0 Login Challenge.",
      ...(details ? { details } : {}),
    });
  }
}

/** Puts the login request behind a login or registration flow's challenge into its answer. */
export async function withLoginRequest(ctx: ServerContext, flow: Flow): Promise<Flow> {
  if (flow.oauth2LoginChallenge && (flow.kind === "login" || flow.kind === "registration")) {
    flow.oauth2LoginRequest = await readLoginRequest(ctx, flow.oauth2LoginChallenge);
  }
  return flow;
}

/**
 * A flow's JSON for an error answer. Kratos' error handlers read the login request again too, but
 * an answer about the form must not turn into another error when the request is gone by now.
 */
export async function renderWithLoginRequest(
  ctx: ServerContext,
  flow: Flow,
): Promise<Record<string, unknown>> {
  try {
    await withLoginRequest(ctx, flow);
  } catch (error) {
    ctx.logger.warn({ err: error, flow: flow.id }, "the OAuth2 login request could not be read");
  }
  return flowJson(flow);
}

/** Kratos' BrowserLocationChangeRequiredError (422): an SPA must navigate to `redirect_browser_to`. */
export function browserLocationChangeRequired(url: string): HerodotError {
  return new HerodotError(422, {
    id: "browser_location_change_required",
    message: "browser location change required",
    reason: `In order to complete this flow please redirect the browser to: ${url}`,
    extra: { redirect_browser_to: url },
  });
}

/** Sends the browser back to the OAuth2 service: HTML 303, JSON 422 `redirect_browser_to`. */
export function sendToOAuth2(
  request: FastifyRequest,
  reply: FastifyReply,
  redirectTo: string,
): FastifyReply {
  if (isJsonRequest(request)) return sendError(reply, browserLocationChangeRequired(redirectTo));
  return reply.redirect(redirectTo, 303);
}
