import type { RequiredAal } from "../config/second-factor-config.ts";
import type { ServerContext } from "../context.ts";
import { HerodotError } from "../http/errors.ts";
import { availableAal } from "../identity/second-factors.ts";
import type { Identity } from "../identity/identity.ts";
import type { Session } from "./session.ts";

/**
 * `PUB/self-service/login/browser?aal=aal2`, plus `return_to` and `login_challenge` when given
 * (query keys sorted, as Go's url.Values encodes them).
 */
export function aal2LoginUrl(
  ctx: ServerContext,
  carry: { returnTo?: string | undefined; loginChallenge?: string | undefined } = {},
): string {
  const url = new URL(`${ctx.config.publicBaseUrl}/self-service/login/browser`);
  url.searchParams.set("aal", "aal2");
  if (carry.loginChallenge) url.searchParams.set("login_challenge", carry.loginChallenge);
  if (carry.returnTo) url.searchParams.set("return_to", carry.returnTo);
  return url.toString();
}

/** Kratos' ErrAALNotSatisfied: 403 `session_aal2_required`, pointing at the second-factor login. */
export function aal2Required(redirectTo: string): HerodotError {
  return new HerodotError(403, {
    id: "session_aal2_required",
    message: "Session does not fulfill the requested Authenticator Assurance Level",
    reason:
      "An active session was found but it does not fulfill the requested Authenticator Assurance Level. Please verify yourself with a second factor to resolve this issue.",
    details: { redirect_browser_to: redirectTo },
    extra: { redirect_browser_to: redirectTo },
  });
}

/**
 * Kratos' DoesSessionSatisfy: `aal1` is met by any authenticated session; `highest_available` by
 * an aal2 session, or by an aal1 session of an identity without an active second factor.
 */
export function satisfiesAal(
  ctx: ServerContext,
  session: Session,
  identity: Identity,
  required: RequiredAal,
): boolean {
  if (session.aal === "aal2") return true;
  if (required === "aal1") return session.aal === "aal1";
  return availableAal(identity, ctx.config.secondFactor) !== "aal2";
}
