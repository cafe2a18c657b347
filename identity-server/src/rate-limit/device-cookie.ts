import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { CookieSettings } from "../http/cookies.ts";
import type { Credential } from "../identity/identity.ts";
import type { Executor } from "../store/schema.ts";

/**
 * OWASP's "device cookies" against lockout as a denial of service: a browser that has signed in to
 * an account before carries a signed cookie naming that account, and its wrong passwords count
 * against a budget of its own instead of the account's (which anyone can use up). The cookie says
 * only "this browser knew the password of identity X once"; it grants nothing else.
 *
 * Value: up to `maxEntries` entries `<identity id>.<device nonce>.<HMAC>` joined by `~`, newest
 * first, so a browser shared by a few people keeps each one's budget. The HMAC is keyed by a key
 * derived from the server secret for this purpose alone, so no other signed value can pass for one.
 *
 * The HMAC also covers the account's password credential version (a short hash of the stored
 * hash), so an entry stops counting the moment the password changes (settings, recovery, an admin
 * update): the browser knew the old password, not the new one. All known browsers of an account
 * share one budget (keyed by the identity id), so signing in from fresh cookie jars does not mint
 * any number of independent budgets.
 */
export const deviceCookieName = "ory_login_device";

const maxEntries = 5;
/** How long a browser stays recognised after its last successful sign-in. */
const deviceCookieMaxAgeSeconds = 365 * 24 * 60 * 60;

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const nonceShape = /^[A-Za-z0-9_-]{22}$/;

function keyOf(secret: string): Buffer {
  return createHmac("sha256", secret).update("login-device-cookie").digest();
}

/**
 * The password credential's version: a short hash of its stored hash, which changes (a new salt)
 * whenever the password is set; "none" without a password.
 */
function passwordVersionOf(hashedPassword: unknown): string {
  if (typeof hashedPassword !== "string" || hashedPassword === "") return "none";
  return createHash("sha256").update(hashedPassword).digest("base64url").slice(0, 16);
}

function mac(secret: string, identityId: string, nonce: string, version: string): string {
  return createHmac("sha256", keyOf(secret))
    .update(`${identityId}.${nonce}.${version}`)
    .digest("base64url");
}

/** The limiter key of every known browser of the account: one shared budget per account. */
function budgetKeyOf(identityId: string): string {
  return `device:${identityId}`;
}

/** Whether the request carries a device cookie at all (before anything is looked up). */
export function hasDeviceCookie(request: FastifyRequest): boolean {
  return Boolean(request.cookies[deviceCookieName]);
}

interface DeviceEntry {
  identityId: string;
  nonce: string;
  given: string;
}

/** The well-formed entries, signatures not yet checked (that needs each account's version). */
function parseEntries(request: FastifyRequest): DeviceEntry[] {
  const value = request.cookies[deviceCookieName];
  if (!value) return [];
  const entries: DeviceEntry[] = [];
  for (const part of value.split("~").slice(0, maxEntries)) {
    const [identityId = "", nonce = "", given = "", ...rest] = part.split(".");
    if (rest.length > 0 || !uuid.test(identityId) || !nonceShape.test(nonce)) continue;
    entries.push({ identityId, nonce, given });
  }
  return entries;
}

/** Signed under any of the secrets: a rotation does not make every known browser a stranger. */
function signatureHolds(secrets: readonly string[], entry: DeviceEntry, version: string): boolean {
  const actual = Buffer.from(entry.given);
  return secrets.some((secret) => {
    const expected = Buffer.from(mac(secret, entry.identityId, entry.nonce, version));
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  });
}

/**
 * The rate-limit key of this browser for the identity, when it carries a valid device cookie for
 * it made under the identity's current password (`credential`, the password credential found);
 * undefined otherwise (an unknown browser, a cookie for another account, or one from before the
 * password changed).
 */
export function deviceKeyFor(
  request: FastifyRequest,
  cookies: CookieSettings,
  identityId: string,
  credential: Credential,
): string | undefined {
  const version = passwordVersionOf(credential.config.hashed_password);
  const entry = parseEntries(request).find((e) => e.identityId === identityId);
  return entry && signatureHolds(cookies.secrets, entry, version)
    ? budgetKeyOf(identityId)
    : undefined;
}

/**
 * Every account this browser's cookie validly names (under its current password), with its
 * rate-limit key. Looks up the password hashes of the (at most `maxEntries`) named accounts.
 */
export async function deviceKeysOf(
  request: FastifyRequest,
  cookies: CookieSettings,
  db: Executor,
): Promise<Map<string, string>> {
  const entries = parseEntries(request);
  if (entries.length === 0) return new Map();
  const rows = await db
    .selectFrom("identity_credentials")
    .select(["identity_id", "config"])
    .where("type", "=", "password")
    .where(
      "identity_id",
      "in",
      entries.map((e) => e.identityId),
    )
    .execute();
  const versions = new Map(
    rows.map((row) => {
      const config = JSON.parse(row.config) as Record<string, unknown>;
      return [row.identity_id, passwordVersionOf(config.hashed_password)];
    }),
  );
  return new Map(
    entries
      .filter((e) => signatureHolds(cookies.secrets, e, versions.get(e.identityId) ?? "none"))
      .map((e) => [e.identityId, budgetKeyOf(e.identityId)]),
  );
}

/**
 * After a successful sign-in: (re)issues the cookie with this identity's entry first, signed under
 * its current password credential (call it after any hash migration). Other accounts' entries are
 * kept as they are; each is checked against its own account when read.
 */
export function rememberDevice(
  request: FastifyRequest,
  reply: FastifyReply,
  cookies: CookieSettings,
  identityId: string,
  credential: Credential,
): void {
  const entries = parseEntries(request);
  const nonce =
    entries.find((e) => e.identityId === identityId)?.nonce ??
    randomBytes(16).toString("base64url");
  const version = passwordVersionOf(credential.config.hashed_password);
  const own = `${identityId}.${nonce}.${mac(cookies.secret, identityId, nonce, version)}`;
  const others = entries
    .filter((e) => e.identityId !== identityId)
    .map((e) => `${e.identityId}.${e.nonce}.${e.given}`);
  const value = [own, ...others].slice(0, maxEntries).join("~");
  reply.setCookie(deviceCookieName, value, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: cookies.secure,
    maxAge: deviceCookieMaxAgeSeconds,
  });
}
