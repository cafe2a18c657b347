import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, readlinkSync } from "node:fs";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

const started = new Set<ChildProcess>();
// A crash of the bench must not leave servers behind.
process.once("exit", () => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGTERM");
});

/** Starts `node <script>` (Node 24, this process's binary) with extra environment variables. */
export function startNode(
  script: string,
  env: Record<string, string>,
  onOutput?: (text: string) => void,
): ChildProcess {
  const child = spawn(process.execPath, [script], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.add(child);
  const forward = (chunk: Buffer) => {
    const text = chunk.toString();
    onOutput?.(text);
    // Servers log at warn: anything they print is worth seeing, apart from a known deprecation.
    if (
      !/Ready in|FSTDEP|trace-warnings|sign-in portal|agency product|identity service|OAuth2 service|mailbox|Ctrl\+C/.test(
        text,
      )
    )
      process.stderr.write(text);
  };
  child.stdout?.on("data", forward);
  child.stderr?.on("data", forward);
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timeout = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timeout);
  started.delete(child);
}

function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export async function waitForPort(port: number, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await accepting(port))) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The direct children of a process with their working directories (Linux /proc). */
export function childrenOf(pid: number): { pid: number; cwd: string }[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  if (text === "") return [];
  return text.split(/\s+/).map((id) => ({
    pid: Number(id),
    cwd: readlinkSync(`/proc/${id}/cwd`),
  }));
}
