import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

// The real portal server (server.ts over the production build, as `npm start` runs it) in a child
// process on a free port: server.ts starts listening at import. The build must exist
// (`npm run build -w portal`).

const portalDir = fileURLToPath(new URL("../", import.meta.url));

export interface PortalProcess {
  origin: string;
  port: number;
  /** Resident memory of the server process now, in bytes (Linux /proc). */
  rss(): number;
  /** What the server printed so far. */
  output(): string;
  /** Resolves once the server printed `text` (at once if it did already). */
  printed(text: string): Promise<void>;
  /** Sends the server process a signal (SIGTERM: its shutdown). */
  signal(name: NodeJS.Signals): void;
  /** Resolves with the exit code once the process ended. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts server.ts with `env` on top of a test default and resolves once it listens. */
export async function startPortalProcess(env: Record<string, string> = {}): Promise<PortalProcess> {
  if (!existsSync(new URL("../build/server/index.js", import.meta.url))) {
    throw new Error("portal build missing: run `npm run build -w portal`");
  }
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["server.ts"], {
    cwd: portalDir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORTAL_HOST: "127.0.0.1",
      PORTAL_PORT: String(port),
      PORTAL_PUBLIC_URL: `http://localhost:${port}`,
      // Nothing listens here: pages that need the identity service show their error state.
      KRATOS_PUBLIC_URL: "http://127.0.0.1:1",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const waiting = new Set<() => void>();
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString();
      for (const check of waiting) check();
      if (output.includes("portal listening")) resolve();
    };
    child.stdout?.on("data", onOutput);
    child.stderr?.on("data", onOutput);
    child.once("exit", (code) => reject(new Error(`portal exited (${code}): ${output}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    rss: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? "0") * 1024;
    },
    output: () => output,
    printed: (text) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (!output.includes(text)) return;
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      }),
    signal: (name) => child.kill(name),
    exited,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
