// @vitest-environment node
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { action } from "./theme.ts";

// POST /theme has no page, so React Router's same-origin check for actions never runs for it: the
// action checks the Origin itself. The portal's public URL is the default http://localhost:3000.

function post(headers: Record<string, string>) {
  const request = new Request("http://localhost:3000/theme", {
    method: "POST",
    headers,
    body: new URLSearchParams({ theme: "dark", return_to: "/en/login" }),
  });
  return action({
    request,
    params: {},
    context: new RouterContextProvider(),
    url: new URL(request.url),
    pattern: "/theme",
  });
}

describe("POST /theme and the Origin of the post", () => {
  it.each([
    ["another site, by a browser without Sec-Fetch-Site", { origin: "https://evil.example" }],
    ["another site", { origin: "https://evil.example", "sec-fetch-site": "cross-site" }],
    ["another site, Origin hidden", { "sec-fetch-site": "cross-site" }],
    [
      "another site claiming our Origin",
      { origin: "http://localhost:3000", "sec-fetch-site": "cross-site" },
    ],
    ["another scheme, by a browser without Sec-Fetch-Site", { origin: "https://localhost:3000" }],
    [
      "a sibling origin on the same site (the agency product's port)",
      { origin: "http://localhost:4000", "sec-fetch-site": "same-site" },
    ],
    ["an opaque origin, by a browser without Sec-Fetch-Site", { origin: "null" }],
  ])("refuses a post from %s (403, no cookie)", async (_name, headers) => {
    const response = await post(headers);
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it.each([
    [
      "the portal's own no-JS form",
      { origin: "http://localhost:3000", "sec-fetch-site": "same-origin" },
    ],
    ["the portal, by a browser without Sec-Fetch-Site", { origin: "http://localhost:3000" }],
    ["a client that sends neither header", {}],
  ])("takes a post from %s", async (_name, headers) => {
    const response = await post(headers);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/en/login");
    expect(response.headers.get("set-cookie")).toMatch(/^theme=dark;/);
  });
});
