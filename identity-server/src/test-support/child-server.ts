import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

// The identity server as its own process (`node src/main.ts`), for tests that need what only a
// separate process shows: file locks held by another process, a command run next to it.

const mainScript = fileURLToPath(new URL("../main.ts", import.meta.url));

export interface ChildServer {
  publicUrl: string;
  adminUrl: string;
  /** The OAuth2 listeners, when IDENTITY_OAUTH2_ENABLED=true. */
  oauth2PublicUrl?: string | undefined;
  oauth2AdminUrl?: string | undefined;
  /** The process itself, e.g. to kill it without warning. */
  child: ChildProcess;
  /** Settles when the process has exited, however it ended. */
  exited: Promise<void>;
  /** SIGTERM, then waits for the exit (SIGKILL if it has not left after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

const started = new Set<ChildProcess>();

/** Kills every child still running (an afterAll safety net for failed tests). */
export function killChildServers(): void {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
}

/** Starts the server on `dataDir` with free ports and waits for its "started" log line. */
export async function startChildServer(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ChildServer> {
  const child = spawn(process.execPath, [mainScript], {
    env: {
      PATH: process.env.PATH,
      IDENTITY_DATA_DIR: dataDir,
      IDENTITY_PUBLIC_PORT: "0",
      IDENTITY_ADMIN_PORT: "0",
      IDENTITY_MAILBOX_ENABLED: "false",
      IDENTITY_OAUTH2_ENABLED: "false",
      IDENTITY_LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.add(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  type Urls = Pick<ChildServer, "publicUrl" | "adminUrl" | "oauth2PublicUrl" | "oauth2AdminUrl">;
  const urls = await new Promise<Urls>((resolve, reject) => {
    lines.on("line", (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string } & Partial<Urls>;
        if (entry.msg === "identity server started" && entry.publicUrl && entry.adminUrl) {
          const { publicUrl, adminUrl, oauth2PublicUrl, oauth2AdminUrl } = entry;
          resolve({ publicUrl, adminUrl, oauth2PublicUrl, oauth2AdminUrl });
        }
      } catch {
        // Not a log line.
      }
    });
    void exited.then(() => reject(new Error(`the server exited before starting: ${stderr}`)));
  });
  child.stdout?.resume();
  return {
    ...urls,
    child,
    exited,
    async stop(graceMs = 30_000) {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
      started.delete(child);
    },
  };
}
