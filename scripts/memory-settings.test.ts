import { spawn } from "node:child_process";
import { readFileSync, readlinkSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { memorySettings } from "./memory-settings.ts";

// The memory settings reach each server both ways it is started: through start-all (npm start,
// npm run start:prod) and through the workspace's own `npm start`.

const root = fileURLToPath(new URL("..", import.meta.url));

/** The `node …` part of a workspace's start script and the variables set before it. */
function startCommand(workspace: string): { env: string[]; nodeArgs: string[] } {
  const pkg = JSON.parse(readFileSync(path.join(root, workspace, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const last = pkg.scripts.start.split("&&").at(-1)?.trim().split(/\s+/) ?? [];
  const node = last.indexOf("node");
  return { env: last.slice(0, node), nodeArgs: last.slice(node + 1, -1) };
}

describe.each(["identity-server", "portal"] as const)("%s's npm start", (workspace) => {
  it("runs the server with the settings start-all uses", () => {
    const settings = memorySettings[workspace];
    const command = startCommand(workspace);
    expect(command.nodeArgs).toEqual(settings.nodeArgs);
    for (const [name, value] of Object.entries(settings.env)) {
      expect(command.env).toContain(`${name}=${value}`);
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** NUL-separated /proc files (cmdline, environ) as lists. */
const procList = (pid: number, file: string) =>
  readFileSync(`/proc/${pid}/${file}`, "utf8").split("\0").filter(Boolean);

describe("start-all", () => {
  it("starts the portal with its V8 flags and glibc settings", async () => {
    const [portal, demo] = await Promise.all([freePort(), freePort()]);
    const inherited = { ...process.env };
    // Variables a caller sets win over start-all's: none of these may come from the test's runner.
    delete inherited.GLIBC_TUNABLES;
    delete inherited.MALLOC_ARENA_MAX;
    const child = spawn(process.execPath, ["scripts/start-all.ts"], {
      cwd: root,
      env: {
        ...inherited,
        EMBEDDED_IDENTITY: "false",
        KRATOS_PUBLIC_URL: "http://127.0.0.1:1",
        DEMO_OIDC_ISSUER: "http://127.0.0.1:1",
        DEMO_OIDC_CLIENT_SECRET: "not-used-before-a-sign-in",
        PORTAL_PORT: String(portal),
        DEMO_PORT: String(demo),
        LOG_FORMAT: "json",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      await new Promise<void>((resolve, reject) => {
        const collect = (chunk: Buffer) => {
          output += chunk.toString();
          if (/Ready in/.test(output)) resolve();
        };
        child.stdout.on("data", collect);
        child.stderr.on("data", collect);
        child.once("exit", (code) => reject(new Error(`start-all exited (${code}):\n${output}`)));
      });
      const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8")
        .trim()
        .split(/\s+/)
        .map(Number);
      const portalPid = children.find(
        (pid) => readlinkSync(`/proc/${pid}/cwd`) === path.join(root, "portal"),
      );
      expect(portalPid).toBeDefined();
      const cmdline = procList(portalPid ?? 0, "cmdline");
      expect(cmdline.slice(1, -1)).toEqual(memorySettings.portal.nodeArgs);
      const environ = procList(portalPid ?? 0, "environ");
      for (const [name, value] of Object.entries(memorySettings.portal.env)) {
        expect(environ).toContain(`${name}=${value}`);
      }
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  }, 90_000);
});
