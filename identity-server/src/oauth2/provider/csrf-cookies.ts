import { createHash } from "node:crypto";
import type { Context } from "koa";
import { matchesHash } from "../challenges/challenge-verifiers.ts";

// Hydra's login and consent CSRF cookies (`ory_hydra_login_csrf_<client>`,
// `ory_hydra_consent_csrf_<client>`): set on the browser that calls /oauth2/auth, checked when a
// verifier comes back. As in Hydra there is one cookie per client and kind, so a newer sign-in to
// the same client in the same browser replaces the older one's cookie. The logout cookie is our
// addition (one per browser).

export type CsrfKind = "login" | "consent" | "logout";

/** Hydra suffixes the name with a hash of the client id (murmur3 there, SHA-256 here). */
export function csrfCookieName(kind: CsrfKind, clientId?: string): string {
  if (kind === "logout" || clientId === undefined) return `oauth2_${kind}_csrf`;
  const suffix = createHash("sha256").update(clientId).digest("base64url").slice(0, 12);
  return `oauth2_${kind}_csrf_${suffix}`;
}

/**
 * Gives the browser a CSRF value, scoped to the path the verifier comes back to. Plain (unsigned):
 * it is a 256-bit random value of which the server keeps only a hash.
 */
export function setCsrfCookie(
  ctx: Context,
  name: string,
  value: string,
  path: string,
  maxAgeMs: number,
): void {
  ctx.cookies.set(name, value, {
    path,
    httpOnly: true,
    sameSite: "lax",
    signed: false,
    maxAge: maxAgeMs,
  });
}

/**
 * Hydra's validateCSRFCookie: the hint of its `request_forbidden` error, or undefined when the
 * browser's cookie carries the value recorded for the request.
 */
export function csrfCookieProblem(
  ctx: Context,
  name: string,
  expectedHash: string,
): string | undefined {
  const value = ctx.cookies.get(name, { signed: false });
  if (!value) return "No CSRF value available in the session cookie.";
  if (!matchesHash(value, expectedHash)) {
    return "The CSRF value from the token does not match the CSRF value from the data store.";
  }
  return undefined;
}

/** fosite's ErrRequestForbidden description followed by the hint. */
export function requestForbiddenDescription(hint: string): string {
  return `The request is not allowed. ${hint}`;
}
