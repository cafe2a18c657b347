import { describe, expect, it } from "vitest";
import { afterSignOut } from "./logout-destination.ts";

describe("where the browser lands after signing out", () => {
  it("is the login page or the same application's sign-in", () => {
    expect(afterSignOut("es", new URLSearchParams())).toBe("/es/login");
    expect(afterSignOut("en", new URLSearchParams("login_challenge=a%26b%3Dc"))).toBe(
      "/en/login?login_challenge=a%26b%3Dc",
    );
    // A lost second factor's former way out: recovery only led back to the second factor.
    expect(afterSignOut("en", new URLSearchParams("then=recovery"))).toBe("/en/login");
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
