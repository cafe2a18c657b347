import { readFileSync } from "node:fs";
import type { AnySchemaObject } from "ajv";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/config.ts";
import { parseDuration } from "../config/duration.ts";
import { errorsOf, validateHydra, validateKratos } from "../test-support/ory-config-schemas.ts";

/**
 * docs/ory/ holds the Kratos and Hydra configuration that matches the embedded server's defaults
 * (README "Pointing the portal at Ory Network or a self-hosted Kratos"). They are checked here
 * against Ory's own configuration schemas (vendor/ory/config-schemas/) and the embedded defaults.
 */
const root = new URL("../../../", import.meta.url);
const readText = (path: string) => readFileSync(new URL(path, root), "utf8");
const readJson = (path: string) => JSON.parse(readText(path)) as AnySchemaObject;
const readYaml = (path: string) => parse(readText(path)) as Record<string, unknown>;

const kratos = readYaml("docs/ory/kratos.yml");
const hydra = readYaml("docs/ory/hydra.yml");
const defaults = loadConfig({});

/** A value at a dotted path of a parsed YAML file. */
function at(config: Record<string, unknown>, path: string): unknown {
  let value: unknown = config;
  for (const key of path.split(".")) {
    value = (value as Record<string, unknown> | undefined)?.[key];
  }
  return value;
}

const ms = (path: string, config = kratos) => parseDuration(String(at(config, path)));

describe("docs/ory/kratos.yml", () => {
  it("is valid under Kratos' configuration schema", () => {
    expect(errorsOf(validateKratos, kratos)).toEqual([]);
  });

  it("is refused by that schema once a key is misspelt or a value is of the wrong kind", () => {
    const misspelt = structuredClone(kratos);
    (at(misspelt, "selfservice.flows.login") as Record<string, unknown>).ui_urls = "x";
    expect(errorsOf(validateKratos, misspelt)).toContain(
      "/selfservice/flows/login must NOT have additional properties",
    );
    const wrongKind = structuredClone(kratos);
    (at(wrongKind, "session") as Record<string, unknown>).lifespan = "one day";
    expect(errorsOf(validateKratos, wrongKind).join("\n")).toContain("/session/lifespan");
    const badSender = structuredClone(kratos);
    (at(badSender, "courier.smtp") as Record<string, unknown>).from_address = "no-reply";
    expect(errorsOf(validateKratos, badSender)).toContain(
      '/courier/smtp/from_address must match format "email"',
    );
  });

  it("sends browsers to the portal's pages and allows the embedded server's return URLs", () => {
    for (const flow of ["error", "login", "registration", "recovery", "verification", "settings"]) {
      expect(at(kratos, `selfservice.flows.${flow}.ui_url`)).toBe(`${defaults.uiBaseUrl}/${flow}`);
    }
    expect(at(kratos, "serve.public.base_url")).toBe(`${defaults.publicBaseUrl}/`);
    expect(at(kratos, "selfservice.default_browser_return_url")).toBe(defaults.defaultReturnUrl);
    expect(at(kratos, "selfservice.allowed_return_urls")).toEqual(defaults.allowedReturnUrls);
    expect(at(kratos, "selfservice.flows.registration.enable_legacy_one_step")).toBe(true);
  });

  it("turns on the methods the portal shows: password, code, TOTP, lookup secrets", () => {
    for (const method of ["password", "code", "totp", "lookup_secret"]) {
      expect(at(kratos, `selfservice.methods.${method}.enabled`), method).toBe(true);
    }
    expect(at(kratos, "selfservice.methods.code.mfa_enabled")).toBe(
      defaults.secondFactor.codeMfaEnabled,
    );
    expect(at(kratos, "selfservice.methods.totp.config.issuer")).toBe(
      defaults.secondFactor.totpIssuer,
    );
    expect(at(kratos, "selfservice.methods.password.config.min_password_length")).toBe(
      defaults.passwordMinLength,
    );
    expect(at(kratos, "selfservice.flows.recovery.use")).toBe("code");
    expect(at(kratos, "selfservice.flows.verification.use")).toBe("code");
  });

  it("has the embedded server's lifespans and session rules", () => {
    for (const flow of ["login", "registration", "recovery", "verification", "settings"]) {
      expect(ms(`selfservice.flows.${flow}.lifespan`), flow).toBe(defaults.flowLifespanMs);
    }
    expect(ms("session.lifespan")).toBe(defaults.sessionLifespanMs);
    expect(ms("session.earliest_possible_extend")).toBe(
      defaults.secondFactor.earliestPossibleExtendMs,
    );
    expect(ms("selfservice.flows.settings.privileged_session_max_age")).toBe(
      defaults.privilegedSessionMaxAgeMs,
    );
    expect(ms("selfservice.methods.code.config.lifespan")).toBe(defaults.codeLifespanMs);
    expect(at(kratos, "selfservice.methods.code.config.max_submissions")).toBe(
      defaults.codeMaxSubmissions,
    );
    expect(at(kratos, "session.whoami.required_aal")).toBe(defaults.secondFactor.whoamiRequiredAal);
    expect(at(kratos, "selfservice.flows.settings.required_aal")).toBe(
      defaults.secondFactor.settingsRequiredAal,
    );
    expect(at(kratos, "selfservice.flows.recovery.notify_unknown_recipients")).toBe(
      defaults.recoveryNotifiesUnknownRecipients,
    );
    expect(at(kratos, "courier.smtp.from_address")).toBe(defaults.courier.smtpFromAddress);
  });

  it("ships the embedded server's identity schema", () => {
    expect(readJson("docs/ory/identity.schema.json")).toEqual(
      JSON.parse(readFileSync(defaults.schemaPath, "utf8")),
    );
  });
});

describe("docs/ory/hydra.yml", () => {
  it("is valid under Hydra's configuration schema", () => {
    expect(errorsOf(validateHydra, hydra)).toEqual([]);
  });

  it("is refused by that schema once a key is misspelt, also in the ory/x parts it refers to", () => {
    const misspelt = structuredClone(hydra);
    (at(misspelt, "urls") as Record<string, unknown>).login_url = "x";
    expect(errorsOf(validateHydra, misspelt)).toContain(
      "/urls must NOT have additional properties",
    );
    // Hydra's serve.public.cors is "$ref": "ory://cors-config".
    const cors = structuredClone(hydra);
    (at(cors, "serve.public") as Record<string, unknown>).cors = { enabled: "yes" };
    expect(errorsOf(validateHydra, cors)).toContain("/serve/public/cors/enabled must be boolean");
  });

  it("sends browsers to the portal's login, consent and logout pages", () => {
    const { oauth2 } = defaults;
    expect(at(hydra, "urls.login")).toBe(oauth2.loginUrl);
    expect(at(hydra, "urls.consent")).toBe(oauth2.consentUrl);
    expect(at(hydra, "urls.logout")).toBe(oauth2.logoutUrl);
    expect(at(hydra, "urls.post_logout_redirect")).toBe(oauth2.postLogoutRedirectUrl);
    expect(at(hydra, "urls.self.issuer")).toBe(`http://localhost:${oauth2.publicPort}`);
  });

  it("ends the Kratos session on RP-initiated logout (Kratos' admin API as identity provider)", () => {
    expect(at(hydra, "urls.identity_provider.url")).toBe(at(kratos, "serve.admin.base_url"));
    expect(at(kratos, "oauth2_provider.url")).toBe(`http://127.0.0.1:${defaults.oauth2.adminPort}`);
  });

  it("has the embedded service's lifespans and PKCE rule", () => {
    const { lifespans } = defaults.oauth2;
    expect(ms("ttl.access_token", hydra)).toBe(lifespans.accessTokenMs);
    expect(ms("ttl.refresh_token", hydra)).toBe(lifespans.refreshTokenMs);
    expect(ms("ttl.id_token", hydra)).toBe(lifespans.idTokenMs);
    expect(ms("ttl.auth_code", hydra)).toBe(lifespans.authorizationCodeMs);
    expect(ms("ttl.login_consent_request", hydra)).toBe(lifespans.loginConsentRequestMs);
    expect(ms("ttl.authentication_session", hydra)).toBe(lifespans.authenticationSessionMs);
    expect(at(hydra, "oauth2.pkce.enforced")).toBe(defaults.oauth2.pkceEnforced);
  });
});
