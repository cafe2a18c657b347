import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ports } from "./ports.ts";
import { childrenOf, repoRoot, startNode, stopProcess } from "./processes.ts";

export interface RunningSystem {
  dataDir: string;
  pids: { identityServer: number; portal: number; demoPortal: number };
  stop(): Promise<void>;
}

/**
 * `node scripts/start-all.ts` (identity server, portal, demo portal) on the bench's ports with a
 * fresh temp data dir and warn-level logs, as in production; resolves once it prints "Ready in".
 */
export async function startSystem(): Promise<RunningSystem> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "portal-bench-"));
  let output = "";
  let child: ChildProcess | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    child = startNode(
      "scripts/start-all.ts",
      {
        NODE_ENV: "production",
        PORTAL_PORT: String(ports.portal),
        // The portal's Prometheus metrics (loopback only): the sign-in page's server time (server-time.ts).
        PORTAL_METRICS_PORT: String(ports.portalMetrics),
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
      (text) => {
        output += text;
        if (output.includes("Ready in")) resolve();
      },
    );
    child.once("exit", (code) => reject(new Error(`start-all exited with ${code}:\n${output}`)));
  });
  const timeout = setTimeout(() => child?.kill("SIGTERM"), 90_000);
  await ready;
  clearTimeout(timeout);
  if (!child?.pid) throw new Error("start-all has no pid");
  const running = child;
  const pidIn = (folder: string): number => {
    const found = childrenOf(running.pid ?? 0).find(
      (c) => path.resolve(c.cwd) === path.join(repoRoot, folder),
    );
    if (!found) throw new Error(`no ${folder} process under start-all`);
    return found.pid;
  };
  return {
    dataDir,
    pids: {
      identityServer: pidIn("identity-server"),
      portal: pidIn("portal"),
      demoPortal: pidIn("demo-portal"),
    },
    async stop() {
      await stopProcess(running);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
