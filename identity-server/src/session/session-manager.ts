import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { regenerateCsrfSecret } from "../http/csrf.ts";
import { sessionCookieName, signCookieValue, unsignCookieValue } from "../http/cookies.ts";
import type { Identity } from "../identity/identity.ts";
import { findIdentity, type IdentityReadOptions } from "../store/identities.ts";
import { findSessionByTokenHash, saveSession } from "../store/sessions.ts";
import type { Executor } from "../store/schema.ts";
import {
  assuranceLevel,
  hashToken,
  isSessionActive,
  randomToken,
  type AuthenticationMethod,
  type Session,
} from "./session.ts";

export interface ActiveSession {
  session: Session;
  identity: Identity;
  token: string;
}

/** Kratos' lookup order: X-Session-Token header, then the session cookie, then a Bearer token. */
export function extractSessionToken(
  ctx: ServerContext,
  request: FastifyRequest,
): string | undefined {
  const header = request.headers["x-session-token"];
  if (typeof header === "string" && header !== "") return header;
  const fromCookie = unsignCookieValue(ctx.cookies.secrets, request.cookies[sessionCookieName]);
  if (fromCookie) return fromCookie;
  const authorization = request.headers.authorization ?? "";
  const match = /^bearer\s+(.+)$/i.exec(authorization);
  return match?.[1]?.trim() || undefined;
}

/** The request's active session with its identity, or undefined when there is none. */
export async function fetchSession(
  ctx: ServerContext,
  request: FastifyRequest,
): Promise<ActiveSession | undefined> {
  const token = extractSessionToken(ctx, request);
  if (!token) return undefined;
  return fetchSessionByToken(ctx, token, hashToken(token));
}

/**
 * The active session of a token (whose hash the caller has computed already), with its identity;
 * `options` may leave out parts of the identity the caller does not use.
 */
export async function fetchSessionByToken(
  ctx: ServerContext,
  token: string,
  tokenHash: string,
  options: IdentityReadOptions = {},
): Promise<ActiveSession | undefined> {
  const session = await findSessionByTokenHash(ctx.db, tokenHash);
  if (!session) return undefined;
  const identity = await findIdentity(ctx.db, session.identityId, options);
  if (!identity || !isSessionActive(session, identity, ctx.now())) return undefined;
  return { session, identity, token };
}

/** A new, not yet activated session with a fresh token. */
export function newSession(identityId: string, now: Date): { session: Session; token: string } {
  return {
    token: randomToken("ory_st_"),
    session: {
      id: randomUUID(),
      identityId,
      active: false,
      aal: "aal0",
      authenticationMethods: [],
      issuedAt: now,
      authenticatedAt: now,
      expiresAt: now,
      devices: [],
      createdAt: now,
      updatedAt: now,
    },
  };
}

/**
 * Records a completed factor and (re)activates the session: issued/authenticated now, expiring a
 * lifespan later. A new session records the device (client IP behind the trusted proxy,
 * User-Agent); like Kratos, a session that signs in again keeps its first device record.
 */
export function activateSession(
  ctx: ServerContext,
  request: FastifyRequest,
  session: Session,
  method: Omit<AuthenticationMethod, "completedAt">,
): void {
  const now = ctx.now();
  addAuthenticationMethod(session, method, now);
  session.active = true;
  session.issuedAt = now;
  session.authenticatedAt = now;
  session.expiresAt = new Date(now.getTime() + ctx.config.sessionLifespanMs);
  if (session.devices.length > 0) return;
  const userAgent = request.headers["user-agent"];
  session.devices.push({
    id: randomUUID(),
    ipAddress: request.ip,
    userAgent: typeof userAgent === "string" ? userAgent : null,
    location: "",
  });
}

/**
 * Appends a completed factor and recomputes the AAL without re-authenticating the session
 * (Kratos' SessionAddAuthenticationMethods, used when a second factor is linked in settings).
 */
export function addAuthenticationMethod(
  session: Session,
  method: Omit<AuthenticationMethod, "completedAt">,
  now: Date,
): void {
  session.authenticationMethods.push({ ...method, completedAt: now });
  session.aal = assuranceLevel(session.authenticationMethods);
  session.updatedAt = now;
}

/** Saves the session; `isNew` (a session from `newSession` never saved) skips the look-ups. */
export async function persistSession(
  db: Executor,
  session: Session,
  token: string,
  options: { isNew?: boolean } = {},
): Promise<void> {
  await saveSession(db, session, hashToken(token), options);
}

/**
 * Sets the session cookie (Max-Age until expiry). Like Kratos, a new anti-CSRF secret is issued
 * unless the request already carried a session of the same identity.
 */
export async function issueSessionCookie(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  token: string,
): Promise<void> {
  const prior = await fetchSession(ctx, request);
  if (!prior || prior.identity.id !== session.identityId) {
    regenerateCsrfSecret(request, reply, ctx.cookies);
  }
  const maxAge = Math.max(
    0,
    Math.floor((session.expiresAt.getTime() - ctx.now().getTime()) / 1000),
  );
  reply.setCookie(sessionCookieName, signCookieValue(ctx.cookies.secret, token), {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: ctx.cookies.secure,
    maxAge,
  });
}

export function clearSessionCookie(ctx: ServerContext, reply: FastifyReply): void {
  reply.setCookie(sessionCookieName, "", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: ctx.cookies.secure,
    maxAge: 0,
    expires: new Date(0),
  });
}
