import { activateSession, newSession } from "../../session/session-manager.ts";
import type { LoginCompletion, LoginSession } from "./login-completion.ts";

/**
 * The request's session is carried on when it belongs to the identity that signed in (a second
 * factor, a refresh); otherwise a new one starts. Either way it is activated with the factor.
 */
export function startLoginSession(c: LoginCompletion): LoginSession {
  const { existing, identity } = c;
  const reused = existing !== undefined && existing.identity.id === identity.id;
  const { session, token } = reused ? existing : newSession(identity.id, c.now);
  activateSession(c.ctx, c.request, session, c.factor);
  return { session, token, reused };
}
