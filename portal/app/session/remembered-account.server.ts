import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { readCookie } from "../http/cookies.server.ts";

/**
 * The account name for the second-factor screen when the flow names nobody: with an
 * authenticator app or backup codes alone, neither Kratos nor the embedded server put the
 * identifier into the aal2 login flow, and whoami answers 403 (session_aal2_required) until the
 * second factor is done. The portal saw the identifier it posted for the first factor, so it keeps
 * it in its own cookie, bound by an HMAC to the session cookie that answer set: the name shows
 * only while the browser still holds that very session cookie. For display only, never trusted.
 */
export const accountCookieName = "portal_account";

/** An e-mail address is at most 254 characters; anything much longer is not worth a cookie. */
const longestAccount = 320;

export interface AccountCookieOptions {
  /** HMAC key; see {@link accountCookieSecret}. */
  secret: string;
  /** Whether the portal is served over https (the cookie is then Secure). */
  secure: boolean;
}

let processSecret: string | undefined;

/**
 * PORTAL_COOKIE_SECRET when set, else a random key for this process: a restart (or another
 * instance without the shared secret) then only stops naming the account on half-finished
 * sign-ins, which is harmless.
 */
export function accountCookieSecret(configured: string | undefined): string {
  if (configured !== undefined) return configured;
  processSecret ??= randomBytes(32).toString("base64url");
  return processSecret;
}

/**
 * The session cookie among the Set-Cookie headers of a sign-in answer: Kratos' default
 * `ory_kratos_session`, Ory Network's `ory_session_<slug>`, the embedded server's. A cookie that
 * is being deleted (empty value or Max-Age=0) does not count.
 */
export function sessionCookieIn(
  setCookies: readonly string[],
): { name: string; value: string } | undefined {
  for (const header of setCookies) {
    const [pair = "", ...attributes] = header.split(";");
    const separator = pair.indexOf("=");
    if (separator <= 0) continue;
    const name = pair.slice(0, separator).trim();
    const value = decoded(pair.slice(separator + 1).trim());
    if (!/session/i.test(name) || value === "") continue;
    const deleted = attributes.some((attribute) =>
      /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(attribute),
    );
    if (!deleted) return { name, value };
  }
  return undefined;
}

/** Set-Cookie for the account, bound to the session cookie the same answer sets; else none. */
export function rememberAccount(
  account: string,
  setCookies: readonly string[],
  options: AccountCookieOptions,
): string | undefined {
  const name = account.trim();
  const session = sessionCookieIn(setCookies);
  if (name === "" || name.length > longestAccount || session === undefined) return undefined;
  const mac = binding(options.secret, name, session.name, session.value);
  const value = [encode(name), encode(session.name), mac].join(".");
  return cookie(value, options.secure);
}

/**
 * The remembered account, only when the cookie is intact and bound to the session cookie the
 * browser sends now (a later sign-in, a sign-out or a tampered value all give undefined).
 */
export function rememberedAccount(
  request: Request,
  options: Pick<AccountCookieOptions, "secret">,
): string | undefined {
  const parts = (readCookie(request, accountCookieName) ?? "").split(".");
  if (parts.length !== 3) return undefined;
  const [account, sessionName, mac] = parts.map((part, index) => (index < 2 ? decode(part) : part));
  if (!account || !sessionName || !mac) return undefined;
  const session = readCookie(request, sessionName);
  if (session === undefined || session === "") return undefined;
  const expected = Buffer.from(binding(options.secret, account, sessionName, session));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return account;
}

/** Set-Cookie that removes the remembered account (sign-out). */
export function forgetAccount(secure: boolean): string {
  return `${cookie("", secure)}; Max-Age=0`;
}

function binding(secret: string, account: string, sessionName: string, sessionValue: string) {
  const sessionHash = createHash("sha256").update(sessionValue).digest("base64url");
  return createHmac("sha256", secret)
    .update(`${accountCookieName}\0${account}\0${sessionName}\0${sessionHash}`)
    .digest("base64url");
}

/** Host-only, httpOnly, SameSite=Lax, no expiry: it matters only for the minutes of the second step. */
function cookie(value: string, secure: boolean): string {
  const parts = [`${accountCookieName}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

function encode(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

function decode(text: string | undefined): string | undefined {
  if (text === undefined || !/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  return Buffer.from(text, "base64url").toString("utf8");
}

/** As the browser sends it back: readCookie decodes percent-escapes, so decode here too. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The options from the portal's configuration (see PORTAL_COOKIE_SECRET in the README). */
export function accountCookieOptions(config: {
  cookieSecret: string | undefined;
  publicUrl: string;
}): AccountCookieOptions {
  return {
    secret: accountCookieSecret(config.cookieSecret),
    secure: config.publicUrl.startsWith("https:"),
  };
}
