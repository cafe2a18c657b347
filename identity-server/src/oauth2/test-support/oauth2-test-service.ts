import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { loadConfig } from "../../config/config.ts";
import { loadOrCreateSecrets } from "../../secret.ts";
import { openDatabase } from "../../store/database.ts";
import { startOAuth2Service, type RunningOAuth2Service } from "../oauth2-service.ts";
import { Browser } from "./browser.ts";
import { assertMatchesHydraSpec } from "./hydra-openapi.ts";

interface AdminResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

interface AdminCall {
  json?: unknown;
  form?: Record<string, string>;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Skip the spec check (for answers the spec does not describe, e.g. 401 before routing). */
  unchecked?: boolean;
}

export interface OAuth2TestService {
  service: RunningOAuth2Service;
  dataDir: string;
  issuer: string;
  adminUrl: string;
  /** identity-provider session ids the service asked to end. */
  endedIdentityProviderSessions: string[];
  /** Calls the admin API and checks the answer against Hydra's OpenAPI spec. */
  admin(method: string, pathAndQuery: string, call?: AdminCall): Promise<AdminResponse>;
  browser(): Browser;
  /** Moves the service's clock (challenge expiry, remembered consent, jwt-bearer time checks). */
  advanceClock(ms: number): void;
  /** Stops and starts again on the same data dir and port (so the issuer stays the same). */
  restart(): Promise<OAuth2TestService>;
  stop(): Promise<void>;
}

/**
 * fetch keeps idle connections to the old listener; the first request after a restart on the
 * same port could pick one the old server already closed. Asking the closed port until it
 * refuses outright empties that pool.
 */
async function forgetPooledConnections(origin: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      await fetch(`${origin}/health/alive`);
    } catch (error) {
      const code = ((error as Error).cause as { code?: string } | undefined)?.code;
      if (code === "ECONNREFUSED") return;
    }
  }
}

export async function startOAuth2TestService(
  env: Record<string, string> = {},
  reuse?: { dataDir: string; port: number; clockOffset: number },
): Promise<OAuth2TestService> {
  const dataDir = reuse?.dataDir ?? mkdtempSync(path.join(tmpdir(), "oauth2-test-"));
  const config = loadConfig({
    IDENTITY_DATA_DIR: dataDir,
    IDENTITY_LOG_LEVEL: "silent",
    IDENTITY_OAUTH2_PUBLIC_PORT: String(reuse?.port ?? 0),
    IDENTITY_OAUTH2_ADMIN_PORT: "0",
    ...env,
  });
  const db = await openDatabase(dataDir);
  let offset = reuse?.clockOffset ?? 0;
  const ended: string[] = [];
  let service: RunningOAuth2Service;
  try {
    service = await startOAuth2Service({
      config: config.oauth2,
      publicHost: config.publicHost,
      // No drain at close: a test's requests are answered by then (the drain has its own tests).
      shutdownGraceMs: 0,
      db,
      secrets: loadOrCreateSecrets(dataDir, config.secrets),
      logger: pino({ level: "silent" }),
      now: () => new Date(Date.now() + offset),
      endIdentityProviderSessions: (ids) => {
        ended.push(...ids);
        return Promise.resolve();
      },
    });
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const close = async () => {
    await service.close();
    await db.destroy();
  };

  const testService: OAuth2TestService = {
    service,
    dataDir,
    issuer: service.issuer,
    adminUrl: service.adminUrl,
    endedIdentityProviderSessions: ended,
    async admin(method, pathAndQuery, call = {}) {
      const headers = new Headers();
      let body: string | undefined;
      if (call.json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(call.json);
      } else if (call.form) {
        headers.set("content-type", "application/x-www-form-urlencoded");
        body = new URLSearchParams(call.form).toString();
      }
      if (call.token) headers.set("authorization", `Bearer ${call.token}`);
      const response = await fetch(`${service.adminUrl}${pathAndQuery}`, { method, headers, body });
      const text = await response.text();
      const parsed = text === "" ? undefined : (JSON.parse(text) as unknown);
      if (!call.unchecked) {
        const pathname = new URL(pathAndQuery, "http://admin.invalid").pathname;
        assertMatchesHydraSpec(method, pathname, response.status, parsed);
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    browser: () => new Browser(service.issuer),
    advanceClock(ms) {
      offset += ms;
    },
    async restart() {
      await close();
      await forgetPooledConnections(service.issuer);
      const port = Number(new URL(service.publicUrl).port);
      return startOAuth2TestService(env, { dataDir, port, clockOffset: offset });
    },
    async stop() {
      await close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testService;
}
