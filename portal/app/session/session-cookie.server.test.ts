// @vitest-environment node
import { describe, expect, it } from "vitest";
import { mayHaveSession } from "./session-cookie.server.ts";

const withCookie = (cookie?: string) =>
  new Request("http://portal.test/en/login", cookie ? { headers: { cookie } } : {});

describe("whether a request may carry a session", () => {
  it("is so for Kratos', Ory Network's and the embedded server's session cookies", () => {
    expect(mayHaveSession(withCookie("csrf_token_x=a; ory_kratos_session=abc"))).toBe(true);
    expect(mayHaveSession(withCookie("ory_session_slug=abc"))).toBe(true);
  });

  it("is not so for a signed-out visitor's cookies: CSRF, fingerprint, language, theme", () => {
    expect(mayHaveSession(withCookie())).toBe(false);
    expect(
      mayHaveSession(withCookie("csrf_token_82b=a; x-session-entropy=f00; lang=en; theme=dark")),
    ).toBe(false);
    // A session cookie being deleted is sent back empty by some clients.
    expect(mayHaveSession(withCookie("ory_kratos_session="))).toBe(false);
  });
});
