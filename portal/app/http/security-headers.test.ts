// @vitest-environment node
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

// The portal's security headers, from the real server (server.ts over the production build, as
// `npm start` runs it). server.ts starts at import, so it runs as a child process on a free port.
// The build must exist (`npm run build -w portal`); without it the test fails and says so.

const portalDir = fileURLToPath(new URL("../../", import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGTERM");
});

function freePort(): Promise<number> {
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

/** Starts server.ts and resolves with its origin once it logs that it listens. */
async function startPortal(publicUrl: string): Promise<string> {
  expect(
    existsSync(new URL("../../build/server/index.js", import.meta.url)),
    "portal build missing: run `npm run build -w portal`",
  ).toBe(true);
  const port = await freePort();
  const child = spawn(process.execPath, ["server.ts"], {
    cwd: portalDir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORTAL_HOST: "127.0.0.1",
      PORTAL_PORT: String(port),
      PORTAL_PUBLIC_URL: publicUrl,
      // Nothing listens here: pages that need the identity service show their error state.
      KRATOS_PUBLIC_URL: "http://127.0.0.1:9",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("portal listening")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`portal exited (${code}): ${output}`)));
  });
  return `http://127.0.0.1:${port}`;
}

function directives(csp: string | null): Map<string, string[]> {
  return new Map(
    (csp ?? "")
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = "", ...values]) => [name, values]),
  );
}

describe("portal security headers", () => {
  it("sends a strict CSP with a fresh nonce per response, and the other hardening headers", async () => {
    const origin = await startPortal("http://localhost:3000");
    const pages = ["/en/login", "/en/registration", "/en/recovery", "/en/error?id=x", "/en"];
    const nonces = new Set<string>();
    for (const path of pages) {
      const response = await fetch(`${origin}${path}`, { redirect: "manual" });
      const csp = directives(response.headers.get("content-security-policy"));
      const scriptSrc = csp.get("script-src") ?? [];
      expect(scriptSrc, path).not.toContain("'unsafe-inline'");
      expect(scriptSrc, path).not.toContain("'unsafe-eval'");
      expect(scriptSrc.includes("*") || scriptSrc.includes("data:"), path).toBe(false);
      const nonce = scriptSrc.find((s) => s.startsWith("'nonce-"));
      expect(nonce, path).toMatch(/^'nonce-[A-Za-z0-9+/]{22}==?'$/);
      nonces.add(nonce ?? "");
      expect(csp.get("frame-ancestors"), path).toEqual(["'none'"]);
      expect(csp.get("object-src"), path).toEqual(["'none'"]);
      expect(csp.get("base-uri"), path).toEqual(["'self'"]);
      expect(csp.get("default-src"), path).toEqual(["'self'"]);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("x-frame-options"), path).toBe("SAMEORIGIN");
      // same-origin, not no-referrer: see server.ts (no-JS posts need an Origin); flow URLs still
      // never leave the site in a Referer.
      expect(response.headers.get("referrer-policy"), path).toBe("same-origin");
      expect(response.headers.get("strict-transport-security"), path).toBeNull();
      expect(response.headers.get("x-powered-by"), path).toBeNull();

      // Every script the page carries has this response's nonce.
      const html = await response.text();
      if (response.headers.get("content-type")?.includes("text/html")) {
        const value = (nonce ?? "").slice("'nonce-".length, -1);
        for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
          expect(tag, path).toContain(`nonce="${value}"`);
        }
        expect(html, path).not.toMatch(/\son[a-z]+=["']/i);
      }
    }
    expect(nonces.size).toBe(pages.length);
  }, 60_000);

  it("adds HSTS only when the public URL is https", async () => {
    const origin = await startPortal("https://sso.example.gov");
    const response = await fetch(`${origin}/en/login`, { redirect: "manual" });
    expect(response.headers.get("strict-transport-security")).toMatch(/^max-age=\d{7,}/);
  }, 60_000);
});
