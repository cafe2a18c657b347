import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { CookieSettings } from "../http/cookies.ts";

/**
 * OWASP's "device cookies" against lockout as a denial of service: a browser that has signed in to
 * an account before carries a signed cookie naming that account, and its wrong passwords count
 * against a budget of its own instead of the account's (which anyone can use up). The cookie says
 * only "this browser knew the password of identity X once"; it grants nothing else.
 *
 * Value: up to `maxEntries` entries `<identity id>.<device nonce>.<HMAC>` joined by `~`, newest
 * first, so a browser shared by a few people keeps each one's budget. The HMAC is keyed by a key
 * derived from the server secret for this purpose alone, so no other signed value can pass for one.
 */
export const deviceCookieName = "ory_login_device";

const maxEntries = 5;
/** How long a browser stays recognised after its last successful sign-in. */
export const deviceCookieMaxAgeSeconds = 365 * 24 * 60 * 60;

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const nonceShape = /^[A-Za-z0-9_-]{22}$/;

function keyOf(secret: string): Buffer {
  return createHmac("sha256", secret).update("login-device-cookie").digest();
}

function mac(secret: string, identityId: string, nonce: string): string {
  return createHmac("sha256", keyOf(secret)).update(`${identityId}.${nonce}`).digest("base64url");
}

/** Whether the request carries a device cookie at all (before anything is looked up). */
export function hasDeviceCookie(request: FastifyRequest): boolean {
  return Boolean(request.cookies[deviceCookieName]);
}

interface DeviceEntry {
  identityId: string;
  nonce: string;
}

/** The entries whose signature holds; anything malformed or forged is ignored. */
function readEntries(request: FastifyRequest, secret: string): DeviceEntry[] {
  const value = request.cookies[deviceCookieName];
  if (!value) return [];
  const entries: DeviceEntry[] = [];
  for (const part of value.split("~").slice(0, maxEntries)) {
    const [identityId = "", nonce = "", given = "", ...rest] = part.split(".");
    if (rest.length > 0 || !uuid.test(identityId) || !nonceShape.test(nonce)) continue;
    const expected = Buffer.from(mac(secret, identityId, nonce));
    const actual = Buffer.from(given);
    if (actual.length === expected.length && timingSafeEqual(actual, expected)) {
      entries.push({ identityId, nonce });
    }
  }
  return entries;
}

/**
 * The rate-limit key of this browser for the identity, when it carries a valid device cookie for
 * it; undefined otherwise (an unknown browser, or a cookie for another account).
 */
export function deviceKeyFor(
  request: FastifyRequest,
  cookies: CookieSettings,
  identityId: string,
): string | undefined {
  return deviceKeysOf(request, cookies).get(identityId);
}

/** Every account this browser's cookie validly names, with the browser's rate-limit key for it. */
export function deviceKeysOf(
  request: FastifyRequest,
  cookies: CookieSettings,
): Map<string, string> {
  return new Map(
    readEntries(request, cookies.secret).map((e) => [e.identityId, `${e.identityId}.${e.nonce}`]),
  );
}

/** After a successful sign-in: (re)issues the cookie with this identity's entry first. */
export function rememberDevice(
  request: FastifyRequest,
  reply: FastifyReply,
  cookies: CookieSettings,
  identityId: string,
): void {
  const entries = readEntries(request, cookies.secret);
  // The same browser keeps its nonce (and so its budget) across sign-ins.
  const nonce =
    entries.find((e) => e.identityId === identityId)?.nonce ??
    randomBytes(16).toString("base64url");
  const kept = [{ identityId, nonce }, ...entries.filter((e) => e.identityId !== identityId)].slice(
    0,
    maxEntries,
  );
  const value = kept
    .map((e) => `${e.identityId}.${e.nonce}.${mac(cookies.secret, e.identityId, e.nonce)}`)
    .join("~");
  reply.setCookie(deviceCookieName, value, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: cookies.secure,
    maxAge: deviceCookieMaxAgeSeconds,
  });
}
