import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// scripts/start-all.ts for real, without the embedded identity server (the portal and the demo
// start against addresses where nothing answers: neither calls them before a request), until it
// prints "Ready in", as the e2e suite waits for it. Its stdout is a pipe, as in CI.

const root = fileURLToPath(new URL("..", import.meta.url));

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

/** Everything start-all printed on stdout up to and including its "Ready in" block. */
async function startAllOutput(env: Record<string, string>): Promise<string> {
  const [portal, demo] = await Promise.all([freePort(), freePort()]);
  // The defaults under test: neither production nor a format chosen by whoever runs the tests.
  const inherited = { ...process.env };
  delete inherited.NODE_ENV;
  delete inherited.LOG_FORMAT;
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
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (/Press Ctrl\+C to stop\./.test(stdout)) resolve();
      });
      child.once("exit", (code) => reject(new Error(`start-all exited (${code}):\n${stderr}`)));
    });
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
  return stdout;
}

describe("npm start's console", () => {
  it("shows readable lines by default outside production, and keeps the Ready line", async () => {
    const output = await startAllOutput({});
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: portal portal listening on /m);
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: demo-portal /m);
    expect(output).not.toContain('"level":');
    expect(output).toMatch(/^Ready in \d+\.\d s \(Node v24\./m);
  }, 90_000);

  it("passes the services' JSON lines through with LOG_FORMAT=json", async () => {
    const output = await startAllOutput({ LOG_FORMAT: "json" });
    const logLines = output.split("\n").filter((line) => line.startsWith("{"));
    expect(logLines.length).toBeGreaterThanOrEqual(2);
    const messages = logLines.map((line) => (JSON.parse(line) as { msg?: string }).msg ?? "");
    expect(messages.some((msg) => msg.startsWith("portal listening on "))).toBe(true);
    expect(output).not.toMatch(/^\[\d\d:\d\d:\d\d\] INFO/m);
    expect(output).toMatch(/^Ready in \d+\.\d s/m);
  }, 90_000);

  it("stops before starting anything when LOG_FORMAT is not a format, naming it", async () => {
    await expect(startAllOutput({ LOG_FORMAT: "text" })).rejects.toThrow(
      /start-all exited \(1\):\nInvalid start-up configuration — LOG_FORMAT: must be pretty or json/,
    );
  }, 90_000);
});
