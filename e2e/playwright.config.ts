import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

// The whole system runs on its own ports and a fresh data directory, so a developer's `npm start`
// and its data are never touched by the tests.
export const ports = {
  portal: 3100,
  demo: 4100,
  identityPublic: 4533,
  identityAdmin: 4534,
  mailbox: 4536,
  oauth2Public: 4544,
  oauth2Admin: 4545,
};
export const portalUrl = `http://localhost:${ports.portal}`;
export const demoUrl = `http://localhost:${ports.demo}`;
export const identityAdminUrl = `http://127.0.0.1:${ports.identityAdmin}`;
export const mailboxUrl = `http://127.0.0.1:${ports.mailbox}`;

const dataDir = mkdtempSync(join(tmpdir(), "portal-e2e-"));

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  reporter: [["list"]],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: portalUrl,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "node ../scripts/start-all.ts",
    wait: { stdout: /Ready in/ },
    timeout: 90_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORTAL_PORT: String(ports.portal),
      DEMO_PORT: String(ports.demo),
      IDENTITY_PUBLIC_PORT: String(ports.identityPublic),
      IDENTITY_ADMIN_PORT: String(ports.identityAdmin),
      IDENTITY_MAILBOX_PORT: String(ports.mailbox),
      IDENTITY_OAUTH2_PUBLIC_PORT: String(ports.oauth2Public),
      IDENTITY_OAUTH2_ADMIN_PORT: String(ports.oauth2Admin),
      IDENTITY_DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      IDENTITY_LOG_LEVEL: "warn",
    },
  },
});
