import type { ServerContext } from "../context.ts";
import type { Session } from "./session.ts";

/**
 * Kratos' IsPrivileged: the session was authenticated recently enough to change credentials and
 * identifiers. A max age of zero (or less) turns the rule off.
 */
export function isPrivileged(ctx: ServerContext, session: Session): boolean {
  const maxAge = ctx.config.privilegedSessionMaxAgeMs;
  if (maxAge <= 0) return true;
  return session.authenticatedAt.getTime() + maxAge > ctx.now().getTime();
}
