import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

import { mainStack, strictStack, timedStack, type Stack } from "./stacks.ts";
import { scaled, timeScale } from "./timing.ts";

export const portalUrl = mainStack.portalUrl;
export const demoUrl = mainStack.demoUrl;
export const identityAdminUrl = mainStack.identityAdminUrl;
export const mailboxUrl = mainStack.mailboxUrl;

// One folder for the stacks' databases, removed by global-teardown.ts. The workers load this file
// too; they inherit the runner's environment, and with it this folder instead of making their own.
process.env.E2E_DATA_ROOT ??= mkdtempSync(join(tmpdir(), "portal-e2e-"));
const dataRoot = process.env.E2E_DATA_ROOT;

function webServer(name: string, stack: Stack) {
  return {
    name,
    command: "node ../scripts/start-all.ts",
    wait: { stdout: /Ready in/ },
    timeout: scaled(90_000),
    reuseExistingServer: false,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: { ...stack.env, IDENTITY_DATA_DIR: join(dataRoot, name) },
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
  globalTeardown: "./global-teardown.ts",
  // Budgets for an idle 2-core machine, where no test needs more than half of its timeout,
  // times the machine's time scale (timing.ts: E2E_TIMEOUT_SCALE, or measured).
  timeout: scaled(30_000),
  expect: { timeout: scaled(10_000) },
  metadata: { timeScale },
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
  webServer: [
    webServer("main", mainStack),
    webServer("timed", timedStack),
    webServer("strict", strictStack),
  ],
});
