// @vitest-environment node
import { describe, expect, it } from "vitest";
import { readCookie, setCookieHeaders } from "./cookies.server.ts";

describe("readCookie", () => {
  const request = new Request("http://localhost/", {
    headers: { cookie: "a=1; theme=dark ; note=hello%20world; bad=%E0%A4%A" },
  });

  it("finds a cookie by exact name and decodes it", () => {
    expect(readCookie(request, "theme")).toBe("dark");
    expect(readCookie(request, "note")).toBe("hello world");
  });

  it("keeps an undecodable value as sent and says undefined for absent cookies", () => {
    expect(readCookie(request, "bad")).toBe("%E0%A4%A");
    expect(readCookie(request, "them")).toBeUndefined();
    expect(readCookie(new Request("http://localhost/"), "theme")).toBeUndefined();
  });
});

describe("setCookieHeaders", () => {
  it("keeps every cookie as its own Set-Cookie header, unchanged", () => {
    const cookies = ["a=1; Path=/; HttpOnly", "b=2; Max-Age=60; Path=/; SameSite=Lax"];
    expect(setCookieHeaders(cookies).getSetCookie()).toEqual(cookies);
  });
});
