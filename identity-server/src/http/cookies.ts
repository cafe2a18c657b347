import { createHmac, timingSafeEqual } from "node:crypto";
import type { Secrets } from "../secret.ts";
import { csrfCookieName } from "./csrf.ts";

export const sessionCookieName = "ory_kratos_session";

/** Everything needed to name, sign and flag the cookies this server issues. */
export interface CookieSettings {
  csrfCookieName: string;
  secure: boolean;
  /** New cookies are signed with this one (the first of `secrets`). */
  secret: string;
  /** A cookie signed with any of these is accepted (secret rotation). */
  secrets: Secrets;
}

export function cookieSettings(publicBaseUrl: string, secrets: Secrets): CookieSettings {
  return {
    csrfCookieName: csrfCookieName(publicBaseUrl),
    // Browsers drop Secure cookies on plain http, so only flag them when the public URL is https.
    secure: new URL(publicBaseUrl).protocol === "https:",
    secret: secrets[0],
    secrets,
  };
}

function signature(secret: string, value: string): string {
  return createHmac("sha256", secret).update(value).digest("base64url");
}

/** The session cookie carries the session token plus an HMAC so a forged cookie is refused unread. */
export function signCookieValue(secret: string, value: string): string {
  return `${value}.${signature(secret, value)}`;
}

/** The signed value, when its signature is under one of `secrets` (the current or an older one). */
export function unsignCookieValue(
  secrets: readonly string[],
  signed: string | undefined,
): string | undefined {
  if (!signed) return undefined;
  const dot = signed.lastIndexOf(".");
  if (dot <= 0) return undefined;
  const value = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1));
  const holds = (secret: string) => {
    const expected = Buffer.from(signature(secret, value));
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  return secrets.some(holds) ? value : undefined;
}
