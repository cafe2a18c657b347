import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Configuration, FrontendApi, IdentityApi } from "@ory/client-fetch";
import { loadConfig } from "../config/config.ts";
import { startIdentityServer, type RunningIdentityServer } from "../server.ts";
import { CookieJar, specCheckedFetch } from "./http-client.ts";

export interface TestServer {
  server: RunningIdentityServer;
  publicUrl: string;
  adminUrl: string;
  dataDir: string;
  /** Moves the server's clock forward (flows and sessions expire without waiting). */
  advanceClock(ms: number): void;
  /** A browser-like SDK client with its own cookie jar. */
  browser(): { api: FrontendApi; jar: CookieJar };
  /** A native-app SDK client (no cookies). */
  native(): FrontendApi;
  admin(): IdentityApi;
  stop(): Promise<void>;
}

/** Starts a real server on free ports with a fresh data dir (or `dataDir` to reuse one). */
export async function startTestServer(
  env: Record<string, string> = {},
  dataDir?: string,
): Promise<TestServer> {
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), "identity-server-test-"));
  let offset = 0;
  const config = loadConfig({
    IDENTITY_PUBLIC_PORT: "0",
    IDENTITY_ADMIN_PORT: "0",
    IDENTITY_DATA_DIR: dir,
    IDENTITY_LOG_LEVEL: "silent",
    ...env,
  });
  const server = await startIdentityServer(config, {
    now: () => new Date(Date.now() + offset),
  });
  const sdk = (basePath: string, jar?: CookieJar) =>
    // An SPA asks for JSON everywhere (kratos-behaviour §0-1); the SDK does not add Accept itself.
    new Configuration({
      basePath,
      fetchApi: specCheckedFetch(jar),
      headers: { Accept: "application/json" },
    });
  return {
    server,
    publicUrl: server.publicUrl,
    adminUrl: server.adminUrl,
    dataDir: dir,
    advanceClock(ms) {
      offset += ms;
    },
    browser() {
      const jar = new CookieJar();
      return { api: new FrontendApi(sdk(server.publicUrl, jar)), jar };
    },
    native: () => new FrontendApi(sdk(server.publicUrl)),
    admin: () => new IdentityApi(sdk(server.adminUrl)),
    async stop() {
      await server.close();
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
