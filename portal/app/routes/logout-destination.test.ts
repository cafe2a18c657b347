import { describe, expect, it } from "vitest";
import { afterSignOut } from "./logout-destination.ts";

describe("where the browser lands after signing out", () => {
  it("is the login page, the same application's sign-in, or recovery", () => {
    expect(afterSignOut("es", new URLSearchParams())).toBe("/es/login");
    expect(afterSignOut("en", new URLSearchParams("login_challenge=a%26b%3Dc"))).toBe(
      "/en/login?login_challenge=a%26b%3Dc",
    );
    expect(afterSignOut("en", new URLSearchParams("then=recovery&login_challenge=x"))).toBe(
      "/en/recovery",
    );
  });

  it("never leaves the portal, whatever the query says", () => {
    expect(afterSignOut("en", new URLSearchParams("then=https://evil.example"))).toBe("/en/login");
    expect(
      afterSignOut("en", new URLSearchParams("login_challenge=//evil.example")).startsWith(
        "/en/login?",
      ),
    ).toBe(true);
  });
});
