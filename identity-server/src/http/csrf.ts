import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { HerodotError } from "./errors.ts";
import type { CookieSettings } from "./cookies.ts";

const tokenLength = 32;
const oneYearSeconds = 365 * 24 * 60 * 60;

/** Kratos names the anti-CSRF cookie after the SHA-256 of its public base URL. */
export function csrfCookieName(publicBaseUrl: string): string {
  return `csrf_token_${createHash("sha256").update(publicBaseUrl).digest("hex")}`;
}

function decode(value: string | undefined): Buffer | undefined {
  if (!value || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return undefined;
  return Buffer.from(value, "base64");
}

/** Masks the secret with a fresh one-time pad so every rendered token differs (BREACH mitigation). */
export function maskToken(secret: Buffer): string {
  const pad = randomBytes(tokenLength);
  const masked = Buffer.alloc(tokenLength);
  for (let i = 0; i < tokenLength; i++) masked[i] = (secret[i] ?? 0) ^ (pad[i] ?? 0);
  return Buffer.concat([pad, masked]).toString("base64");
}

function unmask(token: Buffer): Buffer {
  if (token.length !== 2 * tokenLength) return token;
  const out = Buffer.alloc(tokenLength);
  for (let i = 0; i < tokenLength; i++) out[i] = (token[i] ?? 0) ^ (token[i + tokenLength] ?? 0);
  return out;
}

/** Compares two tokens (raw or masked, base64) in constant time, as nosurf.VerifyToken does. */
export function verifyCsrfToken(expected: string | undefined, sent: string | undefined): boolean {
  const a = decode(expected);
  const b = decode(sent);
  if (!a || !b) return false;
  const real = unmask(a);
  const given = unmask(b);
  return (
    real.length === tokenLength && given.length === tokenLength && timingSafeEqual(real, given)
  );
}

const secrets = new WeakMap<FastifyRequest, Buffer>();
const regenerated = new WeakSet<FastifyRequest>();

/**
 * Returns the request's anti-CSRF secret, issuing a new cookie when the request has none (or a
 * malformed one) — what nosurf's middleware does for every non-ignored route.
 */
export function csrfSecret(
  request: FastifyRequest,
  reply: FastifyReply,
  settings: CookieSettings,
): Buffer {
  const known = secrets.get(request);
  if (known) return known;
  const fromCookie = decode(request.cookies[settings.csrfCookieName]);
  if (fromCookie && fromCookie.length === tokenLength) {
    secrets.set(request, fromCookie);
    return fromCookie;
  }
  return regenerateCsrfSecret(request, reply, settings);
}

/**
 * Issues a new anti-CSRF secret (on login as another identity, on logout and on recovery, like
 * Kratos). At most once per request: flows created later in the same request (a verification flow
 * after registration, a settings flow after recovery) must carry tokens for the cookie that is sent.
 */
export function regenerateCsrfSecret(
  request: FastifyRequest,
  reply: FastifyReply,
  settings: CookieSettings,
): Buffer {
  const current = secrets.get(request);
  if (current && regenerated.has(request)) return current;
  const secret = randomBytes(tokenLength);
  secrets.set(request, secret);
  regenerated.add(request);
  reply.setCookie(settings.csrfCookieName, secret.toString("base64"), {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: settings.secure,
    maxAge: oneYearSeconds,
  });
  return secret;
}

/** A freshly masked token for the `csrf_token` node. */
export function csrfTokenFor(
  request: FastifyRequest,
  reply: FastifyReply,
  settings: CookieSettings,
): string {
  return maskToken(csrfSecret(request, reply, settings));
}

/**
 * A well-formed token tied to no cookie, for the csrf_token node Kratos also renders in API recovery
 * flows. API flows never check it, and no cookie is set on a native app's response.
 */
export function unboundCsrfToken(): string {
  return maskToken(randomBytes(tokenLength));
}

/**
 * The csrf_token node value for flows Kratos always renders one in (recovery, settings): the
 * browser's token, or an unbound one for native apps.
 */
export function csrfTokenForFlowType(
  request: FastifyRequest,
  reply: FastifyReply,
  settings: CookieSettings,
  type: "browser" | "api",
): string {
  return type === "browser" ? csrfTokenFor(request, reply, settings) : unboundCsrfToken();
}

/** Whether the request's cookie holds the secret the flow was created with. */
export function requestMatchesFlowCsrf(
  request: FastifyRequest,
  settings: CookieSettings,
  flowToken: string,
): boolean {
  return verifyCsrfToken(request.cookies[settings.csrfCookieName], flowToken);
}

const csrfMessage = "the request was rejected to protect you from Cross-Site-Request-Forgery";
const csrfReason =
  "Please retry the flow and optionally clear your cookies. The request was rejected to protect you from Cross-Site-Request-Forgery (CSRF) which could cause account takeover, leaking personal information, and other serious security issues.";
const ajaxHint =
  "We detected an AJAX call, please ensure that CORS is enabled and configured correctly, and that your AJAX code sends cookies and has credentials enabled. For further debugging, check your Browser's Network Tab to see what cookies are included or excluded.";
const serverHint =
  "We detected a regular browser or server-side call. To debug browser calls check your Browser's Network Tab to see what cookies are included or excluded. If you are calling from a server ensure that the appropriate cookies are being forwarded and that the SDK method is called correctly.";
const noCookie = "The HTTP Cookie Header is empty or not set.";
const cookieMissing = "The HTTP Cookie Header was set but did not include the anti-CSRF cookie.";
const tokenNotSent =
  "The anti-CSRF cookie was found but the CSRF token was not included in the HTTP request body (csrf_token) nor in the HTTP Header (X-CSRF-Token).";
const tokenMismatch =
  "The HTTP Cookie Header was set and a CSRF token was sent but they do not match. We recommend deleting all cookies for this domain and retrying the flow.";

/** The 403 `security_csrf_violation` error with Kratos' diagnosis of what went wrong. */
export function csrfViolation(
  request: FastifyRequest,
  settings: CookieSettings,
  sentToken: string | undefined,
): HerodotError {
  const mode = request.headers["sec-fetch-mode"];
  const ajax = mode === "cors" || mode === "same-origin";
  const details: Record<string, unknown> = {
    docs: "https://www.ory.com/docs/troubleshooting/csrf",
  };
  const hint = ajax ? ajaxHint : serverHint;
  const contentType = request.headers["content-type"] ?? "";
  if (!request.headers.cookie) {
    Object.assign(details, { hint, reject_reason: noCookie });
  } else if (request.cookies[settings.csrfCookieName] === undefined) {
    Object.assign(details, { hint, reject_reason: cookieMissing });
  } else if (
    !contentType.startsWith("application/json") &&
    !sentToken &&
    !request.headers["x-csrf-token"]
  ) {
    Object.assign(details, { hint: tokenNotSent });
  } else {
    Object.assign(details, { hint, reject_reason: tokenMismatch });
  }
  return new HerodotError(403, {
    id: "security_csrf_violation",
    message: csrfMessage,
    reason: csrfReason,
    details,
  });
}
