import { afterAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { ConfigError, loadConfig } from "./config.ts";

const token = "an-admin-token-of-sufficient-length";

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("the configuration was accepted");
}

describe("admin listen addresses", () => {
  it("default to loopback for both admin listeners", () => {
    const config = loadConfig({});
    expect(config.adminHost).toBe("127.0.0.1");
    expect(config.oauth2.adminHost).toBe("127.0.0.1");
  });

  it("take any loopback address without the admin token", () => {
    for (const host of [
      "127.0.0.1",
      "127.1.2.3",
      "::1",
      "[::1]",
      "localhost",
      "::ffff:127.0.0.1",
    ]) {
      const config = loadConfig({ IDENTITY_ADMIN_HOST: host, IDENTITY_OAUTH2_ADMIN_HOST: host });
      expect(config.adminHost, host).toBe(host.replace(/^\[(.*)\]$/, "$1"));
      expect(config.oauth2.adminHost, host).toBe(config.adminHost);
    }
  });

  it("refuse anything else without IDENTITY_ADMIN_TOKEN, naming both variables", () => {
    expect(configError({ IDENTITY_ADMIN_HOST: "0.0.0.0" })).toContain(
      'IDENTITY_ADMIN_HOST: "0.0.0.0" is not a loopback address: set IDENTITY_ADMIN_TOKEN too',
    );
    expect(configError({ IDENTITY_OAUTH2_ADMIN_HOST: "10.1.2.3" })).toContain(
      'IDENTITY_OAUTH2_ADMIN_HOST: "10.1.2.3" is not a loopback address: set IDENTITY_ADMIN_TOKEN too',
    );
    expect(configError({ IDENTITY_ADMIN_HOST: "::" })).toContain("IDENTITY_ADMIN_HOST:");
    expect(configError({ IDENTITY_ADMIN_HOST: "admin.internal" })).toContain(
      "IDENTITY_ADMIN_TOKEN",
    );
  });

  it("take anything else with the admin token", () => {
    const config = loadConfig({
      IDENTITY_ADMIN_HOST: "0.0.0.0",
      IDENTITY_OAUTH2_ADMIN_HOST: "::",
      IDENTITY_ADMIN_TOKEN: token,
    });
    expect(config.adminHost).toBe("0.0.0.0");
    expect(config.oauth2.adminHost).toBe("::");
  });

  it("refuse what is not an address", () => {
    expect(configError({ IDENTITY_ADMIN_HOST: "http://x/" })).toContain(
      "IDENTITY_ADMIN_HOST: must be an IP address or a host name",
    );
  });
});

describe("admin listeners on every interface", () => {
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it("bind the configured address and ask for the token", async () => {
    server = await startTestServer({
      IDENTITY_ADMIN_HOST: "0.0.0.0",
      IDENTITY_OAUTH2_ADMIN_HOST: "0.0.0.0",
      IDENTITY_ADMIN_TOKEN: token,
      IDENTITY_OAUTH2_ENABLED: "true",
      IDENTITY_OAUTH2_PUBLIC_PORT: "0",
      IDENTITY_OAUTH2_ADMIN_PORT: "0",
    });
    const oauth2AdminUrl = server.server.oauth2?.adminUrl ?? "";
    for (const adminUrl of [server.adminUrl, oauth2AdminUrl]) {
      const url = new URL(adminUrl);
      expect(url.hostname, adminUrl).toBe("0.0.0.0");
      const local = `http://127.0.0.1:${url.port}`;
      const path = adminUrl === server.adminUrl ? "/admin/identities" : "/admin/clients";
      const refused = await fetch(`${local}${path}`);
      expect(refused.status, adminUrl).toBe(401);
      await refused.arrayBuffer();
      const allowed = await fetch(`${local}${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(allowed.status, adminUrl).toBe(200);
      await allowed.arrayBuffer();
    }
  });
});
