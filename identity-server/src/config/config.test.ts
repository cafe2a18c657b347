import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";
import { parseDuration } from "./duration.ts";

describe("loadConfig", () => {
  it("uses the documented defaults", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      publicHost: "127.0.0.1",
      publicPort: 4433,
      adminPort: 4434,
      publicBaseUrl: "http://localhost:3000/api/kratos",
      uiBaseUrl: "http://localhost:3000",
      defaultReturnUrl: "http://localhost:3000/",
      allowedReturnUrls: ["http://localhost:3000/", "http://localhost:4000/"],
      passwordMinLength: 12,
      sessionLifespanMs: 24 * 3_600_000,
      flowLifespanMs: 3_600_000,
      secret: undefined,
      logLevel: "info",
    });
    expect(config.schemaPath).toMatch(/identity-server[/\\]identity\.schema\.json$/);
  });

  it("names the variable when a value is wrong", () => {
    const attempts: [Record<string, string>, RegExp][] = [
      [{ IDENTITY_PUBLIC_PORT: "http" }, /IDENTITY_PUBLIC_PORT/],
      [{ IDENTITY_PUBLIC_BASE_URL: "localhost:3000" }, /IDENTITY_PUBLIC_BASE_URL/],
      [{ IDENTITY_ALLOWED_RETURN_URLS: "http://ok/,ftp://no" }, /IDENTITY_ALLOWED_RETURN_URLS/],
      [{ IDENTITY_SESSION_LIFESPAN: "a day" }, /IDENTITY_SESSION_LIFESPAN/],
      [{ IDENTITY_PASSWORD_MIN_LENGTH: "4" }, /IDENTITY_PASSWORD_MIN_LENGTH/],
      [{ IDENTITY_SECRET: "too-short" }, /IDENTITY_SECRET/],
      [{ IDENTITY_LOG_LEVEL: "loud" }, /IDENTITY_LOG_LEVEL/],
    ];
    for (const [env, variable] of attempts) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(variable);
    }
  });

  it("treats empty values as unset and trims the public base URL's trailing slash", () => {
    const config = loadConfig({
      IDENTITY_PUBLIC_PORT: "",
      IDENTITY_PUBLIC_BASE_URL: "https://id.example/",
    });
    expect(config.publicPort).toBe(4433);
    expect(config.publicBaseUrl).toBe("https://id.example");
  });
});

describe("parseDuration", () => {
  it("reads Go-style durations", () => {
    expect(parseDuration("24h")).toBe(86_400_000);
    expect(parseDuration("1h30m")).toBe(5_400_000);
    expect(parseDuration("1.5s")).toBe(1500);
    expect(parseDuration("250ms")).toBe(250);
    expect(parseDuration("1 hour")).toBeUndefined();
    expect(parseDuration("")).toBeUndefined();
  });
});
