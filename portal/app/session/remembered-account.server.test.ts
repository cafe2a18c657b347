// @vitest-environment node
import { describe, expect, it } from "vitest";
import {
  accountCookieName,
  accountCookieOptions,
  accountCookieSecret,
  forgetAccount,
  rememberAccount,
  rememberedAccount,
  sessionCookieIn,
} from "./remembered-account.server.ts";

const options = { secret: "a-test-secret-of-at-least-32-characters", secure: false };
const sessionSet =
  "ory_kratos_session=MTY5abc-_=; Path=/; Expires=Tue, 01 Jan 2030 00:00:00 GMT; HttpOnly; SameSite=Lax";
const answerCookies = ["csrf_token_82b1=rotated; Path=/; HttpOnly; SameSite=Lax", sessionSet];

/** The browser's next request: the session cookie it was given plus whatever else it holds. */
function requestWith(cookies: Record<string, string>): Request {
  const header = Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join("; ");
  return new Request("http://localhost:3000/en/login?flow=f2", { headers: { cookie: header } });
}

/** The value part of a Set-Cookie header. */
function valueOf(setCookie: string | undefined): string {
  const pair = (setCookie ?? "").split(";")[0] ?? "";
  return pair.slice(pair.indexOf("=") + 1);
}

describe("the remembered account", () => {
  it("is named back while the browser holds the session cookie it was bound to", () => {
    const setCookie = rememberAccount(" jane@example.gov ", answerCookies, options);

    expect(setCookie).toMatch(/^portal_account=[\w.-]+; Path=\/; HttpOnly; SameSite=Lax$/);
    const request = requestWith({
      csrf_token_82b1: "rotated",
      ory_kratos_session: "MTY5abc-_=",
      [accountCookieName]: valueOf(setCookie),
    });
    expect(rememberedAccount(request, options)).toBe("jane@example.gov");
  });

  it("names nobody once the session cookie differs (another sign-in, a sign-out)", () => {
    const value = valueOf(rememberAccount("jane@example.gov", answerCookies, options));

    const otherSession = requestWith({ ory_kratos_session: "other", [accountCookieName]: value });
    const noSession = requestWith({ [accountCookieName]: value });

    expect(rememberedAccount(otherSession, options)).toBeUndefined();
    expect(rememberedAccount(noSession, options)).toBeUndefined();
  });

  it("names nobody when the cookie was tampered with or signed with another key", () => {
    const value = valueOf(rememberAccount("jane@example.gov", answerCookies, options));
    const [, session = "", mac = ""] = value.split(".");
    const otherName = Buffer.from("mallory@example.gov").toString("base64url");
    const request = (cookie: string) =>
      requestWith({ ory_kratos_session: "MTY5abc-_=", [accountCookieName]: cookie });

    expect(rememberedAccount(request(`${otherName}.${session}.${mac}`), options)).toBeUndefined();
    const flipped = `${value.slice(0, -1)}${value.endsWith("A") ? "B" : "A"}`;
    expect(rememberedAccount(request(flipped), options)).toBeUndefined();
    expect(rememberedAccount(request(value.split(".").slice(0, 2).join(".")), options)).toBe(
      undefined,
    );
    expect(rememberedAccount(request("garbage"), options)).toBeUndefined();
    const otherKey = { secret: "another-secret-of-at-least-32-characters" };
    expect(rememberedAccount(request(value), otherKey)).toBeUndefined();
  });

  it("binds to the session cookie the answer set, whatever it is called (Ory Network)", () => {
    const network = ["ory_session_playfulsomething=abc; Path=/; HttpOnly; Secure"];
    const value = valueOf(rememberAccount("jane@example.gov", network, options));
    const request = requestWith({
      ory_session_playfulsomething: "abc",
      [accountCookieName]: value,
    });

    expect(rememberedAccount(request, options)).toBe("jane@example.gov");
  });

  it("remembers nothing without a session cookie in the answer or without an account", () => {
    const deleted = ["ory_kratos_session=; Path=/; Max-Age=0"];

    expect(rememberAccount("jane@example.gov", ["csrf_token=x; Path=/"], options)).toBeUndefined();
    expect(rememberAccount("jane@example.gov", deleted, options)).toBeUndefined();
    expect(rememberAccount("   ", answerCookies, options)).toBeUndefined();
    expect(rememberAccount("x".repeat(321), answerCookies, options)).toBeUndefined();
  });

  it("is Secure on https and removed by forgetAccount", () => {
    const secure = rememberAccount("jane@example.gov", answerCookies, { ...options, secure: true });

    expect(secure).toMatch(/; Secure$/);
    expect(forgetAccount(true)).toBe(
      "portal_account=; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=0",
    );
  });

  it("keeps a name that is not plain ASCII intact", () => {
    const value = valueOf(rememberAccount("josé.núñez@ejemplo.es", answerCookies, options));
    const request = requestWith({ ory_kratos_session: "MTY5abc-_=", [accountCookieName]: value });

    expect(rememberedAccount(request, options)).toBe("josé.núñez@ejemplo.es");
  });
});

describe("the account cookie's configuration", () => {
  it("uses PORTAL_COOKIE_SECRET when set, else one random key for the process", () => {
    expect(accountCookieSecret("configured-secret-of-32-characters-xx")).toBe(
      "configured-secret-of-32-characters-xx",
    );
    const generated = accountCookieSecret(undefined);
    expect(generated).toHaveLength(43);
    expect(accountCookieSecret(undefined)).toBe(generated);
    expect(accountCookieOptions({ cookieSecret: undefined, publicUrl: "https://x.gov" })).toEqual({
      secret: generated,
      secure: true,
    });
  });

  it("finds the session cookie among the answer's cookies", () => {
    expect(sessionCookieIn(answerCookies)).toEqual({
      name: "ory_kratos_session",
      value: "MTY5abc-_=",
    });
  });
});
