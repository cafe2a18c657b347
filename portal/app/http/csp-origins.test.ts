// @vitest-environment node
import { describe, expect, it } from "vitest";
import express from "express";
import helmet from "helmet";
import { originsOf, widenPolicy, withOrigins } from "./csp-origins.ts";

/** The portal's policy as helmet writes it (server.ts), nonce elided. */
const policy =
  "default-src 'self';script-src 'self' 'nonce-abc';img-src 'self' data:;form-action 'self' http://localhost:4000 http://localhost:4444;frame-ancestors 'none'";

describe("originsOf", () => {
  it("keeps the origins of http(s) URLs, each once, and drops everything else", () => {
    expect(
      originsOf([
        "https://agency.example.gov/callback",
        "https://agency.example.gov/other?x=1",
        "http://127.0.0.1:5555/cb",
        "javascript:alert(1)",
        "not a url",
        undefined,
        "com.example.app:/callback",
      ]),
    ).toEqual(["https://agency.example.gov", "http://127.0.0.1:5555"]);
    expect(originsOf(undefined)).toEqual([]);
  });
});

describe("withOrigins", () => {
  it("adds the client's origins to form-action only", () => {
    expect(
      withOrigins(policy, "form-action", ["https://agency.example.gov", "http://localhost:4444"]),
    ).toBe(
      "default-src 'self';script-src 'self' 'nonce-abc';img-src 'self' data:;form-action 'self' http://localhost:4000 http://localhost:4444 https://agency.example.gov;frame-ancestors 'none'",
    );
  });

  it("adds a logo origin to img-src", () => {
    expect(withOrigins(policy, "img-src", ["https://cdn.example.gov"])).toContain(
      "img-src 'self' data: https://cdn.example.gov;",
    );
  });

  it("replaces 'none' rather than combining it with origins", () => {
    expect(withOrigins("form-action 'none'", "form-action", ["https://a.example"])).toBe(
      "form-action https://a.example",
    );
  });

  it("leaves a policy without the directive unchanged", () => {
    expect(withOrigins("default-src 'self'", "form-action", ["https://a.example"])).toBe(
      "default-src 'self'",
    );
  });
});

describe("widenPolicy on a response helmet prepared", () => {
  it("widens the header a loader's response will carry, and nothing once headers are sent", async () => {
    const app = express();
    app.use(
      helmet({
        contentSecurityPolicy: {
          useDefaults: false,
          directives: { defaultSrc: ["'self'"], formAction: ["'self'"], imgSrc: ["'self'"] },
        },
      }),
    );
    app.get("/consent", (_req, res) => {
      // What a challenge page's loader does through the load context.
      widenPolicy(res, "form-action", ["http://localhost:4444", "https://agency.example.gov"]);
      widenPolicy(res, "img-src", ["https://cdn.example.gov"]);
      res.send("ok");
      widenPolicy(res, "form-action", ["https://late.example"]);
    });
    app.get("/login", (_req, res) => res.send("ok"));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      const consent = await fetch(`http://127.0.0.1:${port}/consent`);
      expect(consent.headers.get("content-security-policy")).toBe(
        "default-src 'self';form-action 'self' http://localhost:4444 https://agency.example.gov;img-src 'self' https://cdn.example.gov",
      );
      const login = await fetch(`http://127.0.0.1:${port}/login`);
      expect(login.headers.get("content-security-policy")).toBe(
        "default-src 'self';form-action 'self';img-src 'self'",
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
