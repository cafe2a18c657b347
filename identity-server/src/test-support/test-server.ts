import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Configuration, CourierApi, FrontendApi, IdentityApi } from "@ory/client-fetch";
import { loadConfig } from "../config/config.ts";
import type { Courier } from "../courier/courier.ts";
import { startIdentityServer, type RunningIdentityServer, type StartOptions } from "../server.ts";
import { CookieJar, specCheckedFetch } from "./http-client.ts";

export interface TestServer {
  server: RunningIdentityServer;
  publicUrl: string;
  adminUrl: string;
  dataDir: string;
  mailboxUrl: string;
  courier: Courier;
  /** Moves the server's clock forward (flows and sessions expire without waiting). */
  advanceClock(ms: number): void;
  /** The server's clock now (the wall clock, or the frozen start, plus every advance). */
  now(): Date;
  /** A browser-like SDK client with its own cookie jar. */
  browser(): { api: FrontendApi; jar: CookieJar };
  /** A native-app SDK client (no cookies). */
  native(): FrontendApi;
  admin(): IdentityApi;
  courierAdmin(): CourierApi;
  /** The mailbox's messages to one recipient, newest first (GET /messages.json?to=). */
  messagesTo(recipient: string): Promise<MailboxMessage[]>;
  /** The code of the newest message to the recipient; fails when there is none. */
  latestCode(recipient: string): Promise<string>;
  stop(): Promise<void>;
}

interface MailboxMessage {
  id: string;
  channel: "email" | "sms";
  recipient: string;
  subject: string;
  body: string;
  code: string | null;
  template_type: string;
  status: string;
  send_count: number;
  last_error: string | null;
  created_at: string;
}

/** Starts a real server on free ports with a fresh data dir (or `dataDir` to reuse one). */
export async function startTestServer(
  env: Record<string, string> = {},
  dataDir?: string,
  options: Pick<StartOptions, "transports" | "courierAutoDispatch" | "logger" | "spanExporter"> & {
    /** Stop the clock at start-up; only `advanceClock` moves it (for exact back-off timing). */
    freezeClock?: boolean;
  } = {},
): Promise<TestServer> {
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), "identity-server-test-"));
  let offset = 0;
  const config = loadConfig({
    IDENTITY_PUBLIC_PORT: "0",
    IDENTITY_ADMIN_PORT: "0",
    IDENTITY_DATA_DIR: dir,
    IDENTITY_LOG_LEVEL: "silent",
    IDENTITY_MAILBOX_PORT: "0",
    IDENTITY_OAUTH2_PUBLIC_PORT: "0",
    IDENTITY_OAUTH2_ADMIN_PORT: "0",
    // No drain at close: a test's requests are answered by then (the drain has its own tests).
    IDENTITY_SHUTDOWN_GRACE: "0",
    ...env,
  });
  // Whole seconds, so TOTP steps and second-rounded timestamps line up exactly in tests.
  const frozenAt = Math.floor(Date.now() / 1000) * 1000;
  const { freezeClock, ...startOptions } = options;
  const server = await startIdentityServer(config, {
    ...startOptions,
    now: () => new Date((freezeClock ? frozenAt : Date.now()) + offset),
  });
  const mailboxUrl = server.mailboxUrl ?? "";
  const messagesTo = async (recipient: string): Promise<MailboxMessage[]> => {
    const response = await fetch(`${mailboxUrl}/messages.json?to=${encodeURIComponent(recipient)}`);
    return (await response.json()) as MailboxMessage[];
  };
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
    mailboxUrl,
    courier: server.courier,
    advanceClock(ms) {
      offset += ms;
    },
    now: () => new Date((freezeClock ? frozenAt : Date.now()) + offset),
    browser() {
      const jar = new CookieJar();
      return { api: new FrontendApi(sdk(server.publicUrl, jar)), jar };
    },
    native: () => new FrontendApi(sdk(server.publicUrl)),
    admin: () => new IdentityApi(sdk(server.adminUrl)),
    courierAdmin: () => new CourierApi(sdk(server.adminUrl)),
    messagesTo,
    async latestCode(recipient) {
      const [newest] = await messagesTo(recipient);
      if (!newest?.code) throw new Error(`no code was sent to ${recipient}`);
      return newest.code;
    },
    async stop() {
      await server.close();
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
