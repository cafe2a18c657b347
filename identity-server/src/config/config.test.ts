import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";
import { formatGoDuration, parseDuration } from "./duration.ts";

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
      secrets: undefined,
      logLevel: "info",
      sqliteSynchronous: "normal",
    });
    expect(config.schemaPath).toMatch(/identity-server[/\\]identity\.schema\.json$/);
    expect(config).toMatchObject({
      codeLifespanMs: 3_600_000,
      codeMaxSubmissions: 5,
      privilegedSessionMaxAgeMs: 3_600_000,
      recoveryRevokesSessions: true,
      recoveryNotifiesUnknownRecipients: true,
      requireVerifiedAddress: false,
      legacyRequireVerifiedLoginError: false,
      courier: {
        smtpUrl: undefined,
        smtpFromAddress: "no-reply@localhost",
        smsWebhookUrl: undefined,
        maxAttempts: 5,
        retryBackoffMs: 1000,
      },
      mailbox: { enabled: true, port: 4436 },
    });
  });

  it("defaults the second factors as Kratos does, the issuer to the public host name", () => {
    expect(loadConfig({}).secondFactor).toEqual({
      totpIssuer: "localhost",
      codeMfaEnabled: true,
      trustedDeviceLifespanMs: 720 * 3_600_000,
      whoamiRequiredAal: "highest_available",
      settingsRequiredAal: "highest_available",
      earliestPossibleExtendMs: 24 * 3_600_000,
    });
    const custom = loadConfig({
      IDENTITY_PUBLIC_BASE_URL: "https://id.example:8443/kratos",
      IDENTITY_SESSION_LIFESPAN: "12h",
      IDENTITY_TRUSTED_DEVICE_LIFESPAN: "168h",
      IDENTITY_CODE_MFA_ENABLED: "false",
      IDENTITY_WHOAMI_REQUIRED_AAL: "aal1",
    }).secondFactor;
    expect(custom).toMatchObject({
      totpIssuer: "id.example",
      codeMfaEnabled: false,
      trustedDeviceLifespanMs: 168 * 3_600_000,
      whoamiRequiredAal: "aal1",
      earliestPossibleExtendMs: 12 * 3_600_000,
    });
    expect(loadConfig({ IDENTITY_TOTP_ISSUER: "Agency Portal" }).secondFactor.totpIssuer).toBe(
      "Agency Portal",
    );
  });

  it("turns the mailbox off by default when real SMTP is configured", () => {
    expect(loadConfig({ SMTP_URL: "smtps://user:pass@mail.example:465" }).mailbox.enabled).toBe(
      false,
    );
    expect(
      loadConfig({ SMTP_URL: "smtp://mail.example", IDENTITY_MAILBOX_ENABLED: "true" }).mailbox
        .enabled,
    ).toBe(true);
    expect(loadConfig({ IDENTITY_RECOVERY_REVOKE_SESSIONS: "0" }).recoveryRevokesSessions).toBe(
      false,
    );
    expect(
      loadConfig({ IDENTITY_RECOVERY_NOTIFY_UNKNOWN_RECIPIENTS: "false" })
        .recoveryNotifiesUnknownRecipients,
    ).toBe(false);
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
      [{ IDENTITY_SQLITE_SYNCHRONOUS: "off" }, /IDENTITY_SQLITE_SYNCHRONOUS/],
      [{ IDENTITY_CODE_LIFESPAN: "0s" }, /IDENTITY_CODE_LIFESPAN/],
      [{ IDENTITY_CODE_MAX_SUBMISSIONS: "0" }, /IDENTITY_CODE_MAX_SUBMISSIONS/],
      [{ IDENTITY_PRIVILEGED_SESSION_MAX_AGE: "soon" }, /IDENTITY_PRIVILEGED_SESSION_MAX_AGE/],
      [{ IDENTITY_RECOVERY_REVOKE_SESSIONS: "maybe" }, /IDENTITY_RECOVERY_REVOKE_SESSIONS/],
      [{ IDENTITY_REQUIRE_VERIFIED_ADDRESS: "yes" }, /IDENTITY_REQUIRE_VERIFIED_ADDRESS/],
      [
        { IDENTITY_LEGACY_REQUIRE_VERIFIED_LOGIN_ERROR: "no" },
        /IDENTITY_LEGACY_REQUIRE_VERIFIED_LOGIN_ERROR/,
      ],
      [{ IDENTITY_MAILBOX_ENABLED: "on" }, /IDENTITY_MAILBOX_ENABLED/],
      [{ IDENTITY_MAILBOX_PORT: "99999" }, /IDENTITY_MAILBOX_PORT/],
      [{ IDENTITY_COURIER_MAX_ATTEMPTS: "-1" }, /IDENTITY_COURIER_MAX_ATTEMPTS/],
      [{ IDENTITY_COURIER_RETRY_BACKOFF: "fast" }, /IDENTITY_COURIER_RETRY_BACKOFF/],
      [{ SMTP_URL: "http://mail.example" }, /SMTP_URL/],
      [{ SMTP_FROM_ADDRESS: "nobody" }, /SMTP_FROM_ADDRESS/],
      [{ SMS_WEBHOOK_URL: "ftp://sms.example" }, /SMS_WEBHOOK_URL/],
      [{ IDENTITY_CODE_MFA_ENABLED: "sometimes" }, /IDENTITY_CODE_MFA_ENABLED/],
      [{ IDENTITY_TRUSTED_DEVICE_LIFESPAN: "a month" }, /IDENTITY_TRUSTED_DEVICE_LIFESPAN/],
      [{ IDENTITY_WHOAMI_REQUIRED_AAL: "aal2" }, /IDENTITY_WHOAMI_REQUIRED_AAL/],
      [{ IDENTITY_SETTINGS_REQUIRED_AAL: "aal3" }, /IDENTITY_SETTINGS_REQUIRED_AAL/],
      [
        { IDENTITY_SESSION_EARLIEST_POSSIBLE_EXTEND: "now" },
        /IDENTITY_SESSION_EARLIEST_POSSIBLE_EXTEND/,
      ],
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
    expect(parseDuration("-1h")).toBe(-3_600_000);
  });

  it("prints durations as Go does", () => {
    expect(formatGoDuration(-3_600_000)).toBe("-1h0m0s");
    expect(formatGoDuration(5_400_000)).toBe("1h30m0s");
    expect(formatGoDuration(90_500)).toBe("1m30.5s");
    expect(formatGoDuration(1500)).toBe("1.5s");
    expect(formatGoDuration(250)).toBe("250ms");
    expect(formatGoDuration(0)).toBe("0s");
  });
});
