import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

import { mainStack, timedStack, type Stack } from "./stacks.ts";

export const portalUrl = mainStack.portalUrl;
export const demoUrl = mainStack.demoUrl;
export const identityAdminUrl = mainStack.identityAdminUrl;
export const mailboxUrl = mainStack.mailboxUrl;

function webServer(name: string, stack: Stack) {
  return {
    name,
    command: "node ../scripts/start-all.ts",
    wait: { stdout: /Ready in/ },
    timeout: 90_000,
    reuseExistingServer: false,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: { ...stack.env, IDENTITY_DATA_DIR: mkdtempSync(join(tmpdir(), `portal-e2e-${name}-`)) },
  };
}

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
  webServer: [webServer("main", mainStack), webServer("timed", timedStack)],
});
