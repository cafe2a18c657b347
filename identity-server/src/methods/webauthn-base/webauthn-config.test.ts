import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config/config.ts";

describe("WebAuthn configuration", () => {
  it("defaults the relying party to the portal's public URL, passwordless security keys off", () => {
    expect(loadConfig({}).webauthn).toEqual({
      rpId: "localhost",
      rpOrigins: ["http://localhost:3000"],
      rpDisplayName: "localhost",
      passwordless: false,
    });
    expect(loadConfig({ IDENTITY_UI_BASE_URL: "https://portal.example/app/" }).webauthn).toEqual({
      rpId: "portal.example",
      rpOrigins: ["https://portal.example"],
      rpDisplayName: "portal.example",
      passwordless: false,
    });
  });

  it("takes the RP id, origins, name and passwordless mode from IDENTITY_WEBAUTHN_*", () => {
    const config = loadConfig({
      IDENTITY_UI_BASE_URL: "https://portal.example",
      IDENTITY_WEBAUTHN_RP_ID: "Example.gov",
      IDENTITY_WEBAUTHN_RP_ORIGINS: "https://portal.example.gov, https://login.example.gov:8443",
      IDENTITY_WEBAUTHN_RP_DISPLAY_NAME: "Agency Portal",
      IDENTITY_WEBAUTHN_PASSWORDLESS: "true",
    }).webauthn;
    expect(config).toEqual({
      rpId: "example.gov",
      rpOrigins: ["https://portal.example.gov", "https://login.example.gov:8443"],
      rpDisplayName: "Agency Portal",
      passwordless: true,
    });
  });

  it.each([
    [{ IDENTITY_WEBAUTHN_RP_ID: "https://portal.example" }, "IDENTITY_WEBAUTHN_RP_ID"],
    [{ IDENTITY_WEBAUTHN_RP_ID: "127.0.0.1" }, "IDENTITY_WEBAUTHN_RP_ID"],
    // The default origin (http://localhost:3000) is not on portal.example.
    [{ IDENTITY_WEBAUTHN_RP_ID: "portal.example" }, "IDENTITY_WEBAUTHN_RP_ID"],
    [
      { IDENTITY_WEBAUTHN_RP_ORIGINS: "https://portal.example/login" },
      "IDENTITY_WEBAUTHN_RP_ORIGINS",
    ],
    [{ IDENTITY_WEBAUTHN_RP_ORIGINS: "portal.example" }, "IDENTITY_WEBAUTHN_RP_ORIGINS"],
    [
      {
        IDENTITY_WEBAUTHN_RP_ID: "example.gov",
        IDENTITY_WEBAUTHN_RP_ORIGINS: "http://portal.example.gov",
      },
      "IDENTITY_WEBAUTHN_RP_ORIGINS",
    ],
    [{ IDENTITY_WEBAUTHN_RP_ORIGINS: "https://evil.example" }, "IDENTITY_WEBAUTHN_RP_ORIGINS"],
    [{ IDENTITY_WEBAUTHN_PASSWORDLESS: "maybe" }, "IDENTITY_WEBAUTHN_PASSWORDLESS"],
  ])("refuses %j, naming %s", (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(variable);
  });
});
