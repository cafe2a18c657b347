// @vitest-environment node
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { action, localPath } from "./theme.ts";

function post(fields: Record<string, string>) {
  const request = new Request("http://localhost:3000/theme", {
    method: "POST",
    body: new URLSearchParams(fields),
  });
  return action({
    request,
    params: {},
    context: new RouterContextProvider(),
    url: new URL(request.url),
    pattern: "/theme",
  });
}

describe("POST /theme (the toggle without JavaScript)", () => {
  it("stores the theme for a day and returns to the page", async () => {
    const response = await post({ theme: "dark", return_to: "/es/login?flow=f1" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/es/login?flow=f1");
    expect(response.headers.get("set-cookie")).toBe(
      "theme=dark; Max-Age=86400; Path=/; SameSite=Lax",
    );
  });

  it("ignores unknown themes", async () => {
    const response = await post({ theme: "neon", return_to: "/en/login" });
    expect(response.headers.get("set-cookie")).toBeNull();
  });
});

describe("localPath", () => {
  it("only returns to paths on this site", () => {
    expect(localPath("/en/login?x=1")).toBe("/en/login?x=1");
    expect(localPath("https://evil.example/")).toBe("/");
    expect(localPath("//evil.example/")).toBe("/");
    expect(localPath("/\\evil.example")).toBe("/");
    expect(localPath(null)).toBe("/");
  });
});
