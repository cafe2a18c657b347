// @vitest-environment node
import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.server.ts";

/**
 * docs/deploy/portal.env is the environment of every portal instance in production
 * (docs/deploy/README.md): it must pass the portal's own start-up validation, name only variables
 * the portal reads, and set what several instances behind a load balancer need.
 */
const readRoot = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const deployEnv = parseEnv(readRoot("docs/deploy/portal.env")) as Record<string, string>;

/** The variables the portal's zod schema reads (its keys open a line), and NODE_ENV. */
const portalVariables = new Set([
  "NODE_ENV",
  ...[...readRoot("portal/app/config.server.ts").matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map(
    (match) => match[1],
  ),
]);

describe("docs/deploy/portal.env", () => {
  it("passes the portal's configuration check", () => {
    expect(() => parseConfig(deployEnv)).not.toThrow();
  });

  it("names only variables the portal reads", () => {
    expect(Object.keys(deployEnv).filter((name) => !portalVariables.has(name))).toEqual([]);
    expect(Object.keys(deployEnv).length).toBeGreaterThan(10);
  });

  it("sets what instances behind a load balancer need", () => {
    const config = parseConfig(deployEnv);
    // https: HSTS and Secure cookies.
    expect(config.publicUrl).toMatch(/^https:\/\//);
    expect(config.oauth2PublicUrl).toMatch(/^https:\/\//);
    // Reachable from the balancer, trusting its subnet instead of this machine alone.
    expect(config.host).toBe("0.0.0.0");
    expect(config.trustedProxies).not.toEqual(["loopback"]);
    // One key for the account cookie on every instance, not one per process.
    expect(config.cookieSecret?.length).toBeGreaterThanOrEqual(32);
    expect(config.metricsPort).toBeGreaterThan(0);
    expect(config.cookieDomain).toBe(new URL(config.publicUrl).hostname.replace(/^[^.]+\./, ""));
  });

  it("would be refused at start-up with a wrong value (the check is the portal's own)", () => {
    expect(() => parseConfig({ ...deployEnv, PORTAL_TRUSTED_PROXIES: "1" })).toThrow(
      /PORTAL_TRUSTED_PROXIES/,
    );
    expect(() => parseConfig({ ...deployEnv, PORTAL_COOKIE_SECRET: "short" })).toThrow(
      /PORTAL_COOKIE_SECRET/,
    );
  });
});
