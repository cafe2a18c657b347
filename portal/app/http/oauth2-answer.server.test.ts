// @vitest-environment node
import { describe, expect, it } from "vitest";
import { redirectToOAuth2 } from "./oauth2-answer.server.ts";

// The test configuration: portal on http://localhost:3000, OAuth2 service on http://localhost:4444.
describe("redirectToOAuth2", () => {
  it("follows the OAuth2 service's own URLs and a client's normal absolute URL", () => {
    const verifier = "http://localhost:4444/oauth2/auth?client_id=c&login_verifier=v";
    expect(redirectToOAuth2(verifier).headers.get("location")).toBe(verifier);
    const client = "https://client.example/callback?code=x&state=y";
    expect(redirectToOAuth2(client).headers.get("location")).toBe(client);
  });

  it("never sends a Location a browser reads as another origin or as a script", () => {
    for (const to of [
      "//evil.example/",
      "/\\evil.example",
      "/.//evil.example",
      "javascript:alert(1)",
    ]) {
      const location = redirectToOAuth2(to).headers.get("location") ?? "";
      const resolved = new URL(location, "http://localhost:3000/");
      expect(resolved.origin, to).toBe("http://localhost:3000");
    }
  });
});
