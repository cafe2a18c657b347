import { describe, expect, it } from "vitest";
import { loadDemoConfig } from "./config.ts";

const required = { DEMO_OIDC_CLIENT_SECRET: "s3cret" };

describe("demo-portal configuration", () => {
  it("has working defaults for the embedded setup", () => {
    const config = loadDemoConfig(required);
    expect(config.oidc).toEqual({
      issuer: "http://localhost:4444",
      clientId: "demo-portal",
      clientSecret: "s3cret",
      allowInsecureRequests: true,
    });
    expect(config.publicUrl).toBe("http://localhost:4000");
    expect(config.secureCookies).toBe(false);
  });

  it("draws a new cookie secret per start unless DEMO_COOKIE_SECRET is set", () => {
    expect(loadDemoConfig(required).cookieSecret).not.toBe(loadDemoConfig(required).cookieSecret);
    const secret = "x".repeat(32);
    expect(loadDemoConfig({ ...required, DEMO_COOKIE_SECRET: secret }).cookieSecret).toBe(secret);
    expect(() => loadDemoConfig({ ...required, DEMO_COOKIE_SECRET: "short" })).toThrow(
      /DEMO_COOKIE_SECRET: must be at least 32 characters/,
    );
  });

  it("requires the client secret, naming the variable", () => {
    expect(() => loadDemoConfig({})).toThrow(/DEMO_OIDC_CLIENT_SECRET: is required/);
    expect(() => loadDemoConfig({ DEMO_OIDC_CLIENT_SECRET: "" })).toThrow(
      /DEMO_OIDC_CLIENT_SECRET/,
    );
  });

  it("allows plain-http issuers only on loopback", () => {
    for (const issuer of ["http://127.0.0.1:4444", "http://localhost:4444/", "http://[::1]:4444"]) {
      expect(
        loadDemoConfig({ ...required, DEMO_OIDC_ISSUER: issuer }).oidc.allowInsecureRequests,
      ).toBe(true);
    }
    expect(() =>
      loadDemoConfig({ ...required, DEMO_OIDC_ISSUER: "http://auth.example.gov" }),
    ).toThrow(/DEMO_OIDC_ISSUER: must be https/);
    const https = loadDemoConfig({ ...required, DEMO_OIDC_ISSUER: "https://auth.example.gov/" });
    expect(https.oidc).toMatchObject({
      issuer: "https://auth.example.gov",
      allowInsecureRequests: false,
    });
  });

  it("marks cookies Secure when the demo is served over https", () => {
    const config = loadDemoConfig({ ...required, DEMO_PUBLIC_URL: "https://agency.example.gov" });
    expect(config.secureCookies).toBe(true);
  });

  it("names the bad variable when configuration is wrong", () => {
    expect(() => loadDemoConfig({ ...required, DEMO_PORT: "eighty" })).toThrow(/DEMO_PORT/);
    expect(() => loadDemoConfig({ ...required, DEMO_PUBLIC_URL: "not a url" })).toThrow(
      /DEMO_PUBLIC_URL/,
    );
  });
});
