import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config/config.ts";

describe("OAuth2 configuration", () => {
  it("has Hydra's defaults", () => {
    const { cors, ...oauth2 } = loadConfig({}).oauth2;
    // Hydra's serve.public.cors defaults (cors.test.ts checks the rest).
    expect(cors).toMatchObject({ enabled: false, allowCredentials: true, maxAgeSeconds: 0 });
    expect(oauth2).toEqual({
      enabled: true,
      publicPort: 4444,
      adminPort: 4445,
      // Hydra binds every interface; ours is loopback unless IDENTITY_OAUTH2_ADMIN_HOST says so.
      adminHost: "127.0.0.1",
      issuer: undefined,
      loginUrl: "http://localhost:3000/login",
      consentUrl: "http://localhost:3000/consent",
      logoutUrl: "http://localhost:3000/logout",
      postLogoutRedirectUrl: "http://localhost:3000/",
      errorUrl: undefined,
      adminToken: undefined,
      pkceEnforced: false,
      lifespans: {
        accessTokenMs: 3_600_000,
        refreshTokenMs: 720 * 3_600_000,
        idTokenMs: 3_600_000,
        authorizationCodeMs: 600_000,
        loginConsentRequestMs: 1_800_000,
        authenticationSessionMs: 720 * 3_600_000,
      },
      clientAuthLimits: {
        perClient: { max: 20, windowMs: 900_000 },
        perIp: { max: 50, windowMs: 900_000 },
      },
      seedClient: undefined,
      oryExtensions: true,
    });
  });

  it("reads every variable", () => {
    const { oauth2 } = loadConfig({
      IDENTITY_OAUTH2_ENABLED: "false",
      IDENTITY_OAUTH2_PUBLIC_PORT: "9444",
      IDENTITY_OAUTH2_ADMIN_PORT: "9445",
      IDENTITY_OAUTH2_ISSUER: "https://auth.example.com/",
      IDENTITY_OAUTH2_LOGIN_URL: "https://portal.example.com/login",
      IDENTITY_OAUTH2_CONSENT_URL: "https://portal.example.com/consent",
      IDENTITY_OAUTH2_LOGOUT_URL: "https://portal.example.com/logout",
      IDENTITY_OAUTH2_POST_LOGOUT_REDIRECT_URL: "https://portal.example.com/bye",
      IDENTITY_OAUTH2_ERROR_URL: "https://portal.example.com/oauth2-error",
      IDENTITY_ADMIN_TOKEN: "0123456789abcdef0123",
      IDENTITY_OAUTH2_PKCE_ENFORCED: "true",
      IDENTITY_OAUTH2_ACCESS_TOKEN_LIFESPAN: "15m",
      IDENTITY_OAUTH2_REFRESH_TOKEN_LIFESPAN: "24h",
      IDENTITY_OAUTH2_ID_TOKEN_LIFESPAN: "30m",
      IDENTITY_OAUTH2_AUTH_CODE_LIFESPAN: "1m",
      IDENTITY_OAUTH2_LOGIN_CONSENT_REQUEST_LIFESPAN: "10m",
      IDENTITY_OAUTH2_AUTHENTICATION_SESSION_LIFESPAN: "12h",
      IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_CLIENT: "0",
      IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_IP: "7",
      IDENTITY_RATE_LIMIT_CLIENT_AUTH_WINDOW: "1h",
      IDENTITY_OAUTH2_SEED_CLIENT: JSON.stringify({
        client_id: "demo",
        client_secret: "demo-secret",
        redirect_uris: ["http://localhost:4000/callback"],
        skip_consent: true,
      }),
    });
    expect(oauth2).toMatchObject({
      enabled: false,
      publicPort: 9444,
      adminPort: 9445,
      issuer: "https://auth.example.com",
      errorUrl: "https://portal.example.com/oauth2-error",
      adminToken: "0123456789abcdef0123",
      pkceEnforced: true,
      lifespans: {
        accessTokenMs: 900_000,
        refreshTokenMs: 86_400_000,
        idTokenMs: 1_800_000,
        authorizationCodeMs: 60_000,
        loginConsentRequestMs: 600_000,
        authenticationSessionMs: 43_200_000,
      },
      clientAuthLimits: {
        perClient: { max: 0, windowMs: 3_600_000 },
        perIp: { max: 7, windowMs: 3_600_000 },
      },
      seedClient: { client_id: "demo", skip_consent: true },
    });
  });

  it("names the variable that is wrong", () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ IDENTITY_OAUTH2_PUBLIC_PORT: "70000" }, /IDENTITY_OAUTH2_PUBLIC_PORT/],
      [{ IDENTITY_OAUTH2_ISSUER: "https://auth.example.com/?x=1" }, /IDENTITY_OAUTH2_ISSUER/],
      [{ IDENTITY_OAUTH2_LOGIN_URL: "ftp://x" }, /IDENTITY_OAUTH2_LOGIN_URL/],
      [{ IDENTITY_ADMIN_TOKEN: "short" }, /IDENTITY_ADMIN_TOKEN: must be at least 16/],
      [{ IDENTITY_OAUTH2_ACCESS_TOKEN_LIFESPAN: "soon" }, /IDENTITY_OAUTH2_ACCESS_TOKEN_LIFESPAN/],
      [{ IDENTITY_OAUTH2_SEED_CLIENT: "{" }, /IDENTITY_OAUTH2_SEED_CLIENT: must be a JSON object/],
      [
        { IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_CLIENT: "-1" },
        /IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_CLIENT: must be 0 \(off\) or more/,
      ],
      [
        { IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_IP: "many" },
        /IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_IP: must be a whole number/,
      ],
      [{ IDENTITY_RATE_LIMIT_CLIENT_AUTH_WINDOW: "0s" }, /IDENTITY_RATE_LIMIT_CLIENT_AUTH_WINDOW/],
      [
        { IDENTITY_OAUTH2_SEED_CLIENT: JSON.stringify({ client_id: "x" }) },
        /IDENTITY_OAUTH2_SEED_CLIENT: .*redirect_uris/,
      ],
      [
        {
          IDENTITY_OAUTH2_SEED_CLIENT: JSON.stringify({
            client_id: "x",
            redirect_uris: [],
            typo: 1,
          }),
        },
        /IDENTITY_OAUTH2_SEED_CLIENT/,
      ],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    }
  });
});
