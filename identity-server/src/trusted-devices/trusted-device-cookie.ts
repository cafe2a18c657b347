import type { FastifyReply, FastifyRequest } from "fastify";
import type { CookieSettings } from "../http/cookies.ts";

/** Holds the random token of the browser's trusted-device record (the server keeps its SHA-256). */
const trustedDeviceCookieName = "ory_trusted_device";

export function trustedDeviceToken(request: FastifyRequest): string | undefined {
  const value = request.cookies[trustedDeviceCookieName];
  return value === undefined || value === "" ? undefined : value;
}

export function setTrustedDeviceCookie(
  reply: FastifyReply,
  cookies: CookieSettings,
  token: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(trustedDeviceCookieName, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: cookies.secure,
    maxAge: maxAgeSeconds,
  });
}

export function clearTrustedDeviceCookie(reply: FastifyReply, cookies: CookieSettings): void {
  reply.setCookie(trustedDeviceCookieName, "", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: cookies.secure,
    maxAge: 0,
    expires: new Date(0),
  });
}
