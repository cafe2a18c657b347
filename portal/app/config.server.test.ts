import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.server.ts";

describe("parseConfig", () => {
  it("uses the documented defaults when nothing is set", () => {
    expect(parseConfig({})).toEqual({
      host: "127.0.0.1",
      port: 3000,
      publicUrl: "http://localhost:3000",
      identityPublicUrl: "http://127.0.0.1:4433",
      identityBrowserUrl: "http://localhost:3000/api/kratos",
      ssoPortalUrl: "http://localhost:4000",
      supportUrl: "mailto:support@example.gov",
      cookieDomain: undefined,
      logLevel: "info",
    });
  });

  it("reads every variable and drops trailing slashes from URLs", () => {
    const config = parseConfig({
      PORTAL_HOST: "0.0.0.0",
      PORTAL_PORT: "8080",
      PORTAL_PUBLIC_URL: "https://login.example.gov/",
      KRATOS_PUBLIC_URL: "http://kratos:4433/",
      SSO_PORTAL_URL: "https://portal.example.gov",
      SUPPORT_URL: "https://help.example.gov",
      COOKIE_DOMAIN: "example.gov",
      LOG_LEVEL: "warn",
    });
    expect(config).toMatchObject({
      host: "0.0.0.0",
      port: 8080,
      publicUrl: "https://login.example.gov",
      identityPublicUrl: "http://kratos:4433",
      identityBrowserUrl: "https://login.example.gov/api/kratos",
      cookieDomain: "example.gov",
      logLevel: "warn",
    });
  });

  it("treats an empty variable as unset", () => {
    expect(parseConfig({ COOKIE_DOMAIN: "", PORTAL_PORT: "" })).toMatchObject({
      cookieDomain: undefined,
      port: 3000,
    });
  });

  it.each([
    ["PORTAL_PORT", "not-a-port"],
    ["PORTAL_PORT", "70000"],
    ["KRATOS_PUBLIC_URL", "ftp://kratos"],
    ["SSO_PORTAL_URL", "localhost:4000"],
    ["SUPPORT_URL", "javascript:alert(1)"],
    ["COOKIE_DOMAIN", "bad domain;"],
    ["LOG_LEVEL", "loud"],
  ])("rejects a bad %s and names it", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
  });
});
