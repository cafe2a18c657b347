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
      oauth2AdminUrl: "http://127.0.0.1:4445",
      oauth2PublicUrl: "http://localhost:4444",
      oauth2AdminToken: undefined,
      supportUrl: "mailto:support@example.gov",
      cookieDomain: undefined,
      logLevel: "info",
      session: {
        idleTimeoutMs: 3_600_000,
        promptBeforeIdleMs: 300_000,
        fingerprintRevalidateMs: 900_000,
      },
      listener: { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 },
      shutdownGraceMs: 10_000,
      trustedProxies: ["loopback"],
      metricsPort: undefined,
    });
  });

  it("reads every variable and drops trailing slashes from URLs", () => {
    const config = parseConfig({
      PORTAL_HOST: "0.0.0.0",
      PORTAL_PORT: "8080",
      PORTAL_PUBLIC_URL: "https://login.example.gov/",
      KRATOS_PUBLIC_URL: "http://kratos:4433/",
      SSO_PORTAL_URL: "https://portal.example.gov",
      HYDRA_ADMIN_URL: "http://hydra:4445/",
      HYDRA_PUBLIC_URL: "https://auth.example.gov/",
      HYDRA_ADMIN_TOKEN: "secret-admin-token",
      SUPPORT_URL: "https://help.example.gov",
      COOKIE_DOMAIN: "example.gov",
      LOG_LEVEL: "warn",
      PORTAL_IDLE_TIMEOUT_MS: "8000",
      PORTAL_IDLE_PROMPT_MS: "5000",
      PORTAL_FINGERPRINT_REVALIDATE_MS: "60000",
      PORTAL_HTTP_HEADERS_TIMEOUT_MS: "2000",
      PORTAL_HTTP_REQUEST_TIMEOUT_MS: "4000",
      PORTAL_HTTP_KEEP_ALIVE_TIMEOUT_MS: "1000",
      PORTAL_SHUTDOWN_GRACE_MS: "25000",
      PORTAL_TRUSTED_PROXIES: "10.0.0.0/8, 127.0.0.1",
      PORTAL_METRICS_PORT: "9464",
    });
    expect(config).toMatchObject({
      host: "0.0.0.0",
      port: 8080,
      publicUrl: "https://login.example.gov",
      identityPublicUrl: "http://kratos:4433",
      identityBrowserUrl: "https://login.example.gov/api/kratos",
      oauth2AdminUrl: "http://hydra:4445",
      oauth2PublicUrl: "https://auth.example.gov",
      oauth2AdminToken: "secret-admin-token",
      cookieDomain: "example.gov",
      logLevel: "warn",
      session: { idleTimeoutMs: 8000, promptBeforeIdleMs: 5000, fingerprintRevalidateMs: 60_000 },
      listener: { headersTimeoutMs: 2000, requestTimeoutMs: 4000, keepAliveTimeoutMs: 1000 },
      shutdownGraceMs: 25_000,
      trustedProxies: ["10.0.0.0/8", "127.0.0.1"],
      metricsPort: 9464,
    });
  });

  it("treats an empty variable as unset", () => {
    expect(parseConfig({ COOKIE_DOMAIN: "", PORTAL_PORT: "" })).toMatchObject({
      cookieDomain: undefined,
      port: 3000,
    });
  });

  it("turns the metrics off with port 0", () => {
    expect(parseConfig({ PORTAL_METRICS_PORT: "0" }).metricsPort).toBeUndefined();
  });

  it.each([
    ["PORTAL_PORT", "not-a-port"],
    ["PORTAL_PORT", "70000"],
    ["KRATOS_PUBLIC_URL", "ftp://kratos"],
    ["SSO_PORTAL_URL", "localhost:4000"],
    ["HYDRA_ADMIN_URL", "hydra:4445"],
    ["HYDRA_PUBLIC_URL", "ftp://hydra"],
    ["SUPPORT_URL", "javascript:alert(1)"],
    ["COOKIE_DOMAIN", "bad domain;"],
    ["LOG_LEVEL", "loud"],
    ["PORTAL_IDLE_TIMEOUT_MS", "an hour"],
    ["PORTAL_IDLE_TIMEOUT_MS", "0"],
    ["PORTAL_IDLE_TIMEOUT_MS", "2147483647"],
    ["PORTAL_IDLE_PROMPT_MS", "1.5"],
    ["PORTAL_FINGERPRINT_REVALIDATE_MS", "-1"],
    ["PORTAL_HTTP_HEADERS_TIMEOUT_MS", "0"],
    ["PORTAL_HTTP_REQUEST_TIMEOUT_MS", "ten seconds"],
    ["PORTAL_HTTP_KEEP_ALIVE_TIMEOUT_MS", "-5"],
    ["PORTAL_SHUTDOWN_GRACE_MS", "10s"],
    ["PORTAL_TRUSTED_PROXIES", "10.0.0.0/33"],
    ["PORTAL_TRUSTED_PROXIES", "lb.internal"],
    ["PORTAL_METRICS_PORT", "metrics"],
    ["PORTAL_METRICS_PORT", "65536"],
    ["PORTAL_COOKIE_SECRET", "too-short"],
  ])("rejects a bad %s and names it", (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
  });

  it("rejects a prompt that would open before the session starts counting down", () => {
    expect(() =>
      parseConfig({ PORTAL_IDLE_TIMEOUT_MS: "5000", PORTAL_IDLE_PROMPT_MS: "5000" }),
    ).toThrow(/PORTAL_IDLE_PROMPT_MS: must be shorter than PORTAL_IDLE_TIMEOUT_MS/);
    expect(() => parseConfig({ PORTAL_IDLE_TIMEOUT_MS: "200000" })).toThrow(
      /PORTAL_IDLE_PROMPT_MS: must be shorter/,
    );
  });

  it("rejects a headers timeout longer than the request timeout (Node would refuse to start)", () => {
    expect(() =>
      parseConfig({
        PORTAL_HTTP_HEADERS_TIMEOUT_MS: "40000",
        PORTAL_HTTP_REQUEST_TIMEOUT_MS: "30000",
      }),
    ).toThrow(
      /PORTAL_HTTP_HEADERS_TIMEOUT_MS: must not be longer than PORTAL_HTTP_REQUEST_TIMEOUT_MS/,
    );
  });
});
