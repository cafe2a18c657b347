import { isRecord } from "../../flows/node-guards.ts";

/**
 * Why an OAuth2 login may not be answered from the portal's existing session ("Continue as"):
 * the relying party asked for a fresh authentication, an older one than the session has, a
 * higher assurance level, or a different person.
 */
export type ReauthenticationReason =
  "session-inactive" | "unreadable-request" | "prompt-login" | "max-age" | "acr" | "other-subject";

/** The parts of Hydra's OAuth2LoginRequest the decision reads. */
export interface LoginRequestView {
  skip?: boolean;
  subject?: string;
  request_url?: string;
  oidc_context?: { acr_values?: readonly string[]; id_token_hint_claims?: unknown };
}

/** The parts of Kratos' session (/sessions/whoami) the decision reads. */
export interface SessionView {
  id: string;
  active?: boolean;
  expires_at?: string | Date;
  authenticated_at?: string | Date;
  authenticator_assurance_level?: string;
  identity?: { id: string };
}

function timeOf(value: string | Date | undefined): number {
  if (value === undefined) return Number.NaN;
  return value instanceof Date ? value.getTime() : Date.parse(value);
}

/** `aal2` → 2; anything that is not an assurance level of Kratos' kind → undefined. */
function aalLevel(value: string | undefined): number | undefined {
  const match = /^aal([0-9])$/.exec(value ?? "");
  return match ? Number(match[1]) : undefined;
}

function words(value: string | null): string[] {
  return (value ?? "").split(/\s+/).filter((word) => word !== "");
}

/** A session Kratos marks inactive or whose end has passed answers nothing. */
export function sessionInactive(session: SessionView, now: Date): boolean {
  const expiresAt = timeOf(session.expires_at);
  return session.active === false || (!Number.isNaN(expiresAt) && expiresAt <= now.getTime());
}

/**
 * Whether the session may answer the login request without asking for a password, and if not,
 * why. Hydra marks such a request `skip: false` for all of these reasons and for the harmless
 * one too (no remembered OAuth2 login in this browser); only that one may be answered here.
 * Anything unreadable counts as a reason: re-authentication is always the safe answer.
 */
export function reauthenticationReason(
  request: LoginRequestView,
  session: SessionView,
  now: Date,
): ReauthenticationReason | undefined {
  const identityId = session.identity?.id;
  if (!identityId || sessionInactive(session, now)) return "session-inactive";

  let query: URLSearchParams;
  try {
    query = new URL(request.request_url ?? "").searchParams;
  } catch {
    return "unreadable-request";
  }

  // OIDC Core §3.1.2.1: prompt=login asks for a fresh authentication, whatever the session.
  if (words(query.get("prompt")).includes("login")) return "prompt-login";

  // max_age: the session's authentication may be at most this many seconds old (0 = now).
  const maxAge = query.get("max_age");
  if (maxAge !== null) {
    const authenticatedAt = timeOf(session.authenticated_at);
    if (!/^[0-9]+$/.test(maxAge) || Number.isNaN(authenticatedAt)) return "max-age";
    if (now.getTime() - authenticatedAt >= Number(maxAge) * 1000) return "max-age";
  }

  // acr_values names acceptable levels in order of preference; one the session meets is enough.
  const acrValues = request.oidc_context?.acr_values ?? words(query.get("acr_values"));
  const requested = acrValues.map(aalLevel).filter((level) => level !== undefined);
  const held = aalLevel(session.authenticator_assurance_level) ?? 0;
  if (requested.length > 0 && Math.min(...requested) > held) return "acr";

  // A remembered OAuth2 login or an id_token_hint of someone else: never answer for another person.
  if (request.subject && request.subject !== identityId) return "other-subject";
  const hint = request.oidc_context?.id_token_hint_claims;
  if (
    isRecord(hint) &&
    typeof hint.sub === "string" &&
    hint.sub !== "" &&
    hint.sub !== identityId
  ) {
    return "other-subject";
  }
  return undefined;
}
