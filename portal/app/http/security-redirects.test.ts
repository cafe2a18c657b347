// @vitest-environment node
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { action, localPath } from "../routes/theme.ts";

// The portal's own redirect that takes a target from the browser: the no-JS theme toggle's
// return_to. Other redirects follow the identity service's answers, whose return_to the service
// checks against its allow-list (identity-server/src/hardening/security-redirects.test.ts); a
// return_to_forbidden answer restarts the flow without the address
// (flows/follow-outcome.server.test.ts).

/** Where a browser on the portal would end up for a Location header value. */
function browserTarget(location: string): URL {
  return new URL(location, "http://localhost:3000/en/login");
}

const hostile = [
  "https://evil.example/",
  "//evil.example/",
  "///evil.example/",
  "/\\evil.example/",
  "\\/evil.example/",
  "/\t/evil.example/",
  "/\n/evil.example/",
  "/\r\n/evil.example/",
  "/\t\\evil.example/",
  "/.//evil.example/",
  "/%2e//evil.example/",
  "/./\\evil.example/",
  "javascript:alert(1)",
  "/javascript:alert(1)",
  "http:evil.example",
  "https:/evil.example",
];

describe("the theme toggle's return_to", () => {
  it("never sends the browser off the portal's origin", async () => {
    for (const value of hostile) {
      const path = localPath(value);
      expect(browserTarget(path).origin, JSON.stringify(value)).toBe("http://localhost:3000");
      expect(path.startsWith("/") && !path.startsWith("//"), JSON.stringify(value)).toBe(true);

      const request = new Request("http://localhost:3000/theme", {
        method: "POST",
        body: new URLSearchParams({ theme: "dark", return_to: value }),
      });
      const response = await action({
        request,
        params: {},
        context: new RouterContextProvider(),
        url: new URL(request.url),
        pattern: "/theme",
      });
      const location = response.headers.get("location") ?? "";
      expect(browserTarget(location).origin, JSON.stringify(value)).toBe("http://localhost:3000");
    }
  });

  it("keeps ordinary paths with their query and hash", () => {
    expect(localPath("/es/login?flow=f1#top")).toBe("/es/login?flow=f1#top");
    expect(localPath("/en/settings")).toBe("/en/settings");
  });
});
