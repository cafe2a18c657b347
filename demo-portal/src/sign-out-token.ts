import { createHmac, timingSafeEqual } from "node:crypto";

// The sign-out form carries a token bound to the session, so another site cannot sign people out
// with a forged POST even in browsers that send SameSite=Lax cookies on top-level POSTs.

export function signOutToken(secret: string, sessionId: string): string {
  return createHmac("sha256", secret).update(`sign-out:${sessionId}`).digest("base64url");
}

export function isSignOutToken(secret: string, sessionId: string, token: unknown): boolean {
  if (typeof token !== "string") return false;
  const expected = Buffer.from(signOutToken(secret, sessionId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
