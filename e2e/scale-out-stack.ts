import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { startRoundRobinProxy, type RoundRobinProxy } from "./round-robin-proxy.ts";
import { mainStack, type Stack } from "./stacks.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * Ports of the scale-out stack, used by no other suite: the browser reaches the proxy on 3700,
 * the two portal instances listen on 3701 and 3702, everything else on 4700-4705. A second
 * worker running the test at the same time (`--repeat-each`) adds 10 to each.
 */
function ports(slot: number) {
  const offset = slot * 10;
  return {
    proxy: 3700 + offset,
    portals: [3701 + offset, 3702 + offset],
    demo: 4700 + offset,
    identityPublic: 4701 + offset,
    identityAdmin: 4702 + offset,
    mailbox: 4703 + offset,
    oauth2Public: 4704 + offset,
    oauth2Admin: 4705 + offset,
  };
}

/** The load balancer's own address: the portals trust its X-Forwarded-For, not the browser's. */
export const proxyAddress = "127.0.0.2";

export type ScaleOutStack = Stack & { proxy: RoundRobinProxy; stop: () => Promise<void> };

/** Lines of a child's output, kept for the error message should it stop before it is ready. */
function collect(child: ChildProcess, into: string[]): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on("line", (line) => into.push(line));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Resolves at the first line matching `ready`; rejects if the child exits before it. */
function readyLine(child: ChildProcess, ready: RegExp, output: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!child.stdout) throw new Error("the child's stdout is not piped");
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (ready.test(line)) resolve();
    });
    child.once("exit", (code, signal) =>
      reject(new Error(`exited (${signal ?? code}) before ready:\n${output.join("\n")}`)),
    );
  });
}

/**
 * One identity server (with its OAuth2 service and mailbox) and the agency product, started by
 * scripts/start-all.ts as for the other stacks, plus a second portal instance with the very same
 * environment, both behind a round-robin proxy that is the portal's public URL.
 */
export async function startScaleOutStack(dataDir: string, slot: number): Promise<ScaleOutStack> {
  const port = ports(slot);
  const publicUrl = `http://localhost:${port.proxy}`;
  const demoUrl = `http://localhost:${port.demo}`;
  // Everything a portal instance reads, shared by both: one public URL, one identity service, one
  // OAuth2 service, one cookie secret (else each instance signs the account cookie its own way).
  const portalEnv = {
    NODE_ENV: "production",
    PORTAL_PUBLIC_URL: publicUrl,
    KRATOS_PUBLIC_URL: `http://127.0.0.1:${port.identityPublic}`,
    SSO_PORTAL_URL: demoUrl,
    HYDRA_ADMIN_URL: `http://127.0.0.1:${port.oauth2Admin}`,
    HYDRA_PUBLIC_URL: `http://localhost:${port.oauth2Public}`,
    PORTAL_TRUSTED_PROXIES: proxyAddress,
    PORTAL_COOKIE_SECRET: randomBytes(32).toString("base64url"),
  };
  const env = {
    ...process.env,
    // The main stack's limits and log levels, on this stack's ports.
    ...mainStack.env,
    ...portalEnv,
    PORTAL_PORT: String(port.portals[0]),
    DEMO_PORT: String(port.demo),
    DEMO_PUBLIC_URL: demoUrl,
    IDENTITY_PUBLIC_PORT: String(port.identityPublic),
    IDENTITY_ADMIN_PORT: String(port.identityAdmin),
    IDENTITY_MAILBOX_PORT: String(port.mailbox),
    IDENTITY_OAUTH2_PUBLIC_PORT: String(port.oauth2Public),
    IDENTITY_OAUTH2_ADMIN_PORT: String(port.oauth2Admin),
    IDENTITY_DATA_DIR: dataDir,
  };

  const children: ChildProcess[] = [];
  let proxy: RoundRobinProxy | undefined;
  const stop = async () => {
    await proxy?.close();
    for (const child of children) child.kill("SIGTERM");
    await Promise.all(children.map(exited));
  };

  try {
    const output: string[] = [];
    const all = spawn(process.execPath, [join(root, "scripts/start-all.ts")], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(all);
    collect(all, output);
    await readyLine(all, /^Ready in/, output);

    // start-all.ts built portal/dist for the first instance; the second runs the same build.
    const secondOutput: string[] = [];
    const second = spawn(process.execPath, [join(root, "portal/dist/server.js")], {
      cwd: join(root, "portal"),
      env: { ...env, ...portalEnv, PORTAL_PORT: String(port.portals[1]), LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(second);
    collect(second, secondOutput);
    // Its start-up line (pino JSON at info level, the only one it writes at that level).
    await readyLine(second, /portal listening on/, secondOutput);

    proxy = await startRoundRobinProxy({
      port: port.proxy,
      upstreams: port.portals.map((portal) => `http://127.0.0.1:${portal}`),
      localAddress: proxyAddress,
    });
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    portalUrl: publicUrl,
    demoUrl,
    identityAdminUrl: `http://127.0.0.1:${port.identityAdmin}`,
    mailboxUrl: `http://127.0.0.1:${port.mailbox}`,
    oauth2PublicUrl: `http://localhost:${port.oauth2Public}`,
    oauth2AdminUrl: `http://127.0.0.1:${port.oauth2Admin}`,
    env,
    proxy,
    stop,
  };
}
