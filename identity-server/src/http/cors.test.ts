import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config/config.ts";
import { originMatches, parseOriginPattern } from "./cors-origins.ts";
import { CorsPolicy, type CorsConfig } from "./cors.ts";

function policy(origins: string[], overrides: Partial<CorsConfig> = {}): CorsPolicy {
  return new CorsPolicy({
    enabled: true,
    allowedOrigins: origins.map(parseOriginPattern),
    allowedMethods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    allowedHeaders: ["Authorization", "Content-Type", "Cookie"],
    exposedHeaders: ["Content-Type", "set-cookie"],
    allowCredentials: true,
    maxAgeSeconds: 0,
    debug: false,
    ...overrides,
  });
}

describe("origin patterns (Kratos' allowed_origins)", () => {
  it.each([
    ["https://app.example.com", "https://app.example.com", true],
    ["https://app.example.com", "https://APP.example.com", true],
    ["https://app.example.com", "http://app.example.com", false],
    ["https://app.example.com", "https://app.example.com:8443", false],
    ["https://*.example.com", "https://app.example.com", true],
    ["https://*.example.com", "https://a.b.example.com", true],
    ["https://*.example.com", "https://example.com", false],
    ["https://*.example.com", "https://evilexample.com", false],
    ["https://*.example.com", "https://example.com.evil.net", false],
    ["https://app-*.example.com", "https://app-pr-7.example.com", true],
    ["http://*.example.co.uk:3000", "http://app.example.co.uk:3000", true],
    ["*", "https://anything.example", true],
  ])("%s allows %s: %s", (pattern, origin, allowed) => {
    expect(originMatches([parseOriginPattern(pattern)], origin)).toBe(allowed);
  });

  it.each([
    ["https://*foo.com", /not bounded at a registrable domain/],
    ["https://*.com", /not bounded/],
    ["https://*.co.uk", /not bounded/],
    ["https://*.github.io", /not bounded/],
    ["https://www.example.*", /not bounded/],
    ["https://*", /not bounded/],
    ["https://*.*.example.com", /more than one \*/],
    ["https://app.example.com/", /no path or trailing slash/],
    ["https://app.example.com/login", /no path/],
    ["app.example.com", /not an origin/],
    ["ftp://app.example.com", /not an http\(s\) origin/],
  ])("refuses %s", (pattern, message) => {
    expect(() => parseOriginPattern(pattern)).toThrow(message);
  });
});

describe("CorsPolicy (rs/cors as Kratos runs it)", () => {
  const cors = policy(["https://app.example.com"]);

  it("answers an allowed preflight with the origin, the asked method and headers", () => {
    const answer = cors.answer({
      method: "OPTIONS",
      origin: "https://app.example.com",
      requestMethod: "POST",
      requestHeaders: "content-type,authorization",
    });
    expect(answer.preflight).toBe(true);
    expect(answer.vary).toBe(
      "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    );
    expect(answer.headers).toEqual({
      "access-control-allow-origin": "https://app.example.com",
      "access-control-allow-methods": "POST",
      "access-control-allow-headers": "content-type,authorization",
      "access-control-allow-credentials": "true",
    });
  });

  it.each([
    ["another origin", { origin: "https://evil.example.com" }],
    ["no origin", { origin: undefined }],
    ["a method not allowed", { requestMethod: "TRACE" }],
    ["a header not allowed", { requestHeaders: "content-type, x-evil" }],
  ])("still answers a preflight with %s, but without CORS headers", (_what, change) => {
    const answer = cors.answer({
      method: "OPTIONS",
      origin: "https://app.example.com",
      requestMethod: "POST",
      requestHeaders: "content-type",
      ...change,
    });
    expect(answer.preflight).toBe(true);
    expect(answer.headers).toEqual({});
  });

  it("sends Max-Age only when configured", () => {
    const answer = policy(["https://app.example.com"], { maxAgeSeconds: 600 }).answer({
      method: "OPTIONS",
      origin: "https://app.example.com",
      requestMethod: "GET",
      requestHeaders: undefined,
    });
    expect(answer.headers["access-control-max-age"]).toBe("600");
    expect(answer.headers["access-control-allow-headers"]).toBeUndefined();
  });

  it("marks an allowed actual request, exposing headers in Go's canonical form", () => {
    const answer = cors.answer({
      method: "GET",
      origin: "https://app.example.com",
      requestMethod: undefined,
      requestHeaders: undefined,
    });
    expect(answer.preflight).toBe(false);
    expect(answer.vary).toBe("Origin");
    expect(answer.headers).toEqual({
      "access-control-allow-origin": "https://app.example.com",
      "access-control-expose-headers": "Content-Type, Set-Cookie",
      "access-control-allow-credentials": "true",
    });
  });

  it("reflects the caller's origin for *, never the literal * (credentials need an origin)", () => {
    const answer = policy(["*"]).answer({
      method: "GET",
      origin: "https://any.example.org",
      requestMethod: undefined,
      requestHeaders: undefined,
    });
    expect(answer.headers["access-control-allow-origin"]).toBe("https://any.example.org");
  });

  it("adds nothing for a refused origin or a method not allowed", () => {
    for (const request of [
      { method: "GET", origin: "https://evil.example.com" },
      { method: "HEAD", origin: "https://app.example.com" },
    ]) {
      const answer = cors.answer({
        ...request,
        requestMethod: undefined,
        requestHeaders: undefined,
      });
      expect(answer.headers).toEqual({});
    }
  });

  it("without credentials sends no Allow-Credentials", () => {
    const answer = policy(["https://app.example.com"], { allowCredentials: false }).answer({
      method: "POST",
      origin: "https://app.example.com",
      requestMethod: undefined,
      requestHeaders: undefined,
    });
    expect(answer.headers["access-control-allow-credentials"]).toBeUndefined();
  });
});

describe("CORS configuration", () => {
  it("is off by default, with Kratos' and Hydra's defaults", () => {
    const config = loadConfig({});
    expect(config.cors).toMatchObject({
      enabled: false,
      allowedMethods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
      allowedHeaders: ["Authorization", "Content-Type", "Cookie"],
      exposedHeaders: ["Content-Type", "Set-Cookie"],
      allowCredentials: true,
      maxAgeSeconds: 0,
    });
    expect(config.oauth2.cors).toMatchObject({
      enabled: false,
      allowedMethods: [
        "POST",
        "GET",
        "PUT",
        "PATCH",
        "DELETE",
        "CONNECT",
        "HEAD",
        "OPTIONS",
        "TRACE",
      ],
      allowCredentials: true,
    });
    expect(config.oauth2.cors.allowedHeaders).toContain("Accept-Language");
    expect(config.oauth2.cors.exposedHeaders).toContain("Cache-Control");
  });

  it("reads every variable", () => {
    const config = loadConfig({
      IDENTITY_CORS_ENABLED: "true",
      IDENTITY_CORS_ALLOWED_ORIGINS: "https://app.example.com, https://*.example.org",
      IDENTITY_CORS_ALLOWED_METHODS: "get,post",
      IDENTITY_CORS_ALLOWED_HEADERS: "Content-Type,X-Session-Token",
      IDENTITY_CORS_EXPOSED_HEADERS: "Content-Type",
      IDENTITY_CORS_ALLOW_CREDENTIALS: "false",
      IDENTITY_CORS_MAX_AGE: "600",
      IDENTITY_CORS_DEBUG: "true",
    });
    expect(config.cors).toEqual({
      enabled: true,
      allowedOrigins: [
        { kind: "exact", origin: "https://app.example.com" },
        { kind: "wildcard", prefix: "https://", suffix: ".example.org" },
      ],
      allowedMethods: ["GET", "POST"],
      allowedHeaders: ["Content-Type", "X-Session-Token"],
      exposedHeaders: ["Content-Type"],
      allowCredentials: false,
      maxAgeSeconds: 600,
      debug: true,
    });
  });

  it.each([
    [
      { IDENTITY_CORS_ENABLED: "true" },
      /IDENTITY_CORS_ALLOWED_ORIGINS: must list the allowed origins/,
    ],
    [
      { IDENTITY_OAUTH2_CORS_ENABLED: "yes" },
      /IDENTITY_OAUTH2_CORS_ENABLED: must be true or false/,
    ],
    [
      { IDENTITY_OAUTH2_CORS_ENABLED: "true" },
      /IDENTITY_OAUTH2_CORS_ALLOWED_ORIGINS: must list the allowed origins/,
    ],
    [
      { IDENTITY_CORS_ALLOWED_ORIGINS: "https://*foo.com" },
      /IDENTITY_CORS_ALLOWED_ORIGINS: .*not bounded/,
    ],
    [
      { IDENTITY_CORS_ALLOWED_METHODS: "GET,FETCH" },
      /IDENTITY_CORS_ALLOWED_METHODS: must be methods/,
    ],
    [
      { IDENTITY_CORS_ALLOWED_HEADERS: "Content Type" },
      /IDENTITY_CORS_ALLOWED_HEADERS: must be header/,
    ],
    [{ IDENTITY_CORS_MAX_AGE: "10m" }, /IDENTITY_CORS_MAX_AGE: must be a whole number of seconds/],
    [{ IDENTITY_OAUTH2_CORS_MAX_AGE: "-1" }, /IDENTITY_OAUTH2_CORS_MAX_AGE: must be 0 or more/],
  ])("refuses %o", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
