import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { errorsOf, validateHydra, validateKratos } from "../test-support/ory-config-schemas.ts";

/**
 * docs/deploy/ (README there): production overrides for Kratos and Hydra, loaded after the files
 * in docs/ory/ (`-c docs/ory/kratos.yml -c docs/deploy/kratos.production.yml`), and the portal's
 * environment. Checked here: each pair, merged as Ory merges config files, is valid under Ory's own
 * configuration schema, and every URL in them agrees with docs/deploy/portal.env, so the three
 * files can be edited for a deployment without sending a browser to a page that is not there.
 */
type Tree = Record<string, unknown>;

const root = new URL("../../../", import.meta.url);
const readText = (path: string) => readFileSync(new URL(path, root), "utf8");
const readYaml = (path: string) => parse(readText(path)) as Tree;

const isTree = (value: unknown): value is Tree =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Ory's configx (koanf) merge of config files: later keys win, maps merge, lists are replaced. */
function merge(base: Tree, override: Tree): Tree {
  const merged: Tree = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const before = merged[key];
    merged[key] = isTree(before) && isTree(value) ? merge(before, value) : value;
  }
  return merged;
}

function at(config: Tree, path: string): unknown {
  let value: unknown = config;
  for (const key of path.split(".")) value = isTree(value) ? value[key] : undefined;
  return value;
}

const kratosOverride = readYaml("docs/deploy/kratos.production.yml");
const hydraOverride = readYaml("docs/deploy/hydra.production.yml");
const kratos = merge(readYaml("docs/ory/kratos.yml"), kratosOverride);
const hydra = merge(readYaml("docs/ory/hydra.yml"), hydraOverride);
const portal = parseEnv(readText("docs/deploy/portal.env")) as Record<string, string>;
const portalUrl = portal.PORTAL_PUBLIC_URL ?? "";

describe("docs/deploy: Kratos and Hydra for production", () => {
  it("are valid under Ory's configuration schemas once merged over docs/ory/", () => {
    expect(errorsOf(validateKratos, kratos)).toEqual([]);
    expect(errorsOf(validateHydra, hydra)).toEqual([]);
  });

  it("are refused by those schemas with a misspelt override", () => {
    const misspelt = merge(kratos, { session: { cookie: { same_sites: "Lax" } } });
    expect(errorsOf(validateKratos, misspelt)).toContain(
      "/session/cookie must NOT have additional properties",
    );
    const badRange = merge(hydra, { serve: { tls: { allow_termination_from: ["10.0.0.0"] } } });
    expect(errorsOf(validateHydra, badRange).join("\n")).toContain(
      "/serve/tls/allow_termination_from/0",
    );
  });

  it("keep secrets and databases out of the files (they come from the environment)", () => {
    for (const config of [kratosOverride, hydraOverride]) {
      expect(Object.keys(config)).not.toContain("dsn");
      expect(Object.keys(config)).not.toContain("secrets");
    }
  });

  it("send Kratos' browsers to the portal's public origin", () => {
    expect(portalUrl).toMatch(/^https:\/\//);
    expect(at(kratos, "serve.public.base_url")).toBe(`${portalUrl}/api/kratos/`);
    for (const flow of ["error", "login", "registration", "recovery", "verification", "settings"]) {
      expect(at(kratos, `selfservice.flows.${flow}.ui_url`), flow).toBe(`${portalUrl}/${flow}`);
    }
    expect(at(kratos, "selfservice.default_browser_return_url")).toBe(`${portalUrl}/`);
    expect(at(kratos, "selfservice.flows.logout.after.default_browser_return_url")).toBe(
      `${portalUrl}/`,
    );
    expect(at(kratos, "selfservice.allowed_return_urls")).toEqual([
      `${portalUrl}/`,
      `${portal.SSO_PORTAL_URL}/`,
    ]);
    expect(at(kratos, "selfservice.methods.totp.config.issuer")).toBe(new URL(portalUrl).hostname);
  });

  it("send Hydra's browsers to the portal's login, consent and logout pages", () => {
    for (const page of ["login", "consent", "logout"]) {
      expect(at(hydra, `urls.${page}`), page).toBe(`${portalUrl}/${page}`);
    }
    expect(at(hydra, "urls.post_logout_redirect")).toBe(`${portalUrl}/`);
    expect(at(hydra, "urls.self.issuer")).toBe(portal.HYDRA_PUBLIC_URL);
  });

  it("wire the services to each other where the portal reaches them", () => {
    expect(at(kratos, "oauth2_provider.url")).toBe(portal.HYDRA_ADMIN_URL);
    expect(at(hydra, "urls.identity_provider.publicUrl")).toBe(`${portal.KRATOS_PUBLIC_URL}/`);
    expect(at(hydra, "urls.identity_provider.url")).toBe(at(kratos, "serve.admin.base_url"));
    expect(new URL(String(portal.KRATOS_PUBLIC_URL)).port).toBe(
      String(at(kratos, "serve.public.port")),
    );
    expect(new URL(String(portal.HYDRA_ADMIN_URL)).port).toBe(
      String(at(hydra, "serve.admin.port")),
    );
  });

  it("trust the same load balancer for TLS termination as the portal does for addresses", () => {
    expect(at(hydra, "serve.tls.allow_termination_from")).toEqual(
      String(portal.PORTAL_TRUSTED_PROXIES).split(/[\s,]+/),
    );
  });

  it("keep Kratos' cookies host-only on the portal's origin", () => {
    expect(at(kratos, "session.cookie.domain")).toBeUndefined();
    expect(at(kratos, "cookies.domain")).toBeUndefined();
  });
});
