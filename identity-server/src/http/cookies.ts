import { createHmac, timingSafeEqual } from "node:crypto";
import { csrfCookieName } from "./csrf.ts";

export const sessionCookieName = "ory_kratos_session";

/** Everything needed to name, sign and flag the cookies this server issues. */
export interface CookieSettings {
  csrfCookieName: string;
  secure: boolean;
  secret: string;
}

export function cookieSettings(publicBaseUrl: string, secret: string): CookieSettings {
  return {
    csrfCookieName: csrfCookieName(publicBaseUrl),
    // Browsers drop Secure cookies on plain http, so only flag them when the public URL is https.
    secure: new URL(publicBaseUrl).protocol === "https:",
    secret,
  };
}

function signature(secret: string, value: string): string {
  return createHmac("sha256", secret).update(value).digest("base64url");
}

/** The session cookie carries the session token plus an HMAC so a forged cookie is refused unread. */
export function signCookieValue(secret: string, value: string): string {
  return `${value}.${signature(secret, value)}`;
}

export function unsignCookieValue(secret: string, signed: string | undefined): string | undefined {
  if (!signed) return undefined;
  const dot = signed.lastIndexOf(".");
  if (dot <= 0) return undefined;
  const value = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1));
  const expected = Buffer.from(signature(secret, value));
  return given.length === expected.length && timingSafeEqual(given, expected) ? value : undefined;
}
