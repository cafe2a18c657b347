import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  loadConfig,
  startIdentityServer,
  type RunningIdentityServer,
} from "@portal/identity-server";

export const demoPublicUrl = "http://localhost:4000";
export const clientSecret = "demo-portal-test-secret";

/** The same client `scripts/start-all.ts` seeds for the demo in the embedded default. */
const seedClient = {
  client_id: "demo-portal",
  client_secret: clientSecret,
  client_name: "Agency product",
  redirect_uris: [`${demoPublicUrl}/auth/callback`],
  post_logout_redirect_uris: [`${demoPublicUrl}/`],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  scope: "openid offline_access email profile",
  skip_consent: true,
};

export interface IdentityStack {
  issuer: string;
  /** Calls the OAuth2 admin API (the test plays the portal's login and consent UIs). */
  admin(
    method: string,
    pathAndQuery: string,
    json?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  stop(): Promise<void>;
}

/** A real identity server with its OAuth2 service on free ports and a throw-away data dir. */
export async function startIdentityStack(env: Record<string, string> = {}): Promise<IdentityStack> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "demo-portal-test-"));
  let server: RunningIdentityServer;
  try {
    server = await startIdentityServer(
      loadConfig({
        IDENTITY_DATA_DIR: dataDir,
        IDENTITY_LOG_LEVEL: "silent",
        IDENTITY_PUBLIC_PORT: "0",
        IDENTITY_ADMIN_PORT: "0",
        IDENTITY_MAILBOX_PORT: "0",
        IDENTITY_OAUTH2_PUBLIC_PORT: "0",
        IDENTITY_OAUTH2_ADMIN_PORT: "0",
        IDENTITY_OAUTH2_SEED_CLIENT: JSON.stringify(seedClient),
        ...env,
      }),
    );
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const oauth2 = server.oauth2;
  if (!oauth2) throw new Error("the identity server started without its OAuth2 service");
  return {
    issuer: oauth2.issuer,
    async admin(method, pathAndQuery, json) {
      const response = await fetch(`${oauth2.adminUrl}${pathAndQuery}`, {
        method,
        headers: json === undefined ? {} : { "content-type": "application/json" },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
    },
    async stop() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
