// @vitest-environment node
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { portalPages } from "../portal-pages.ts";

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

interface Portal {
  origin: string;
  /** Everything the server printed so far. */
  output(): string;
}

/** Starts server.ts and resolves with its origin once it logs that it listens. */
async function startPortal(publicUrl: string): Promise<string> {
  return (await startPortalWithOutput(publicUrl)).origin;
}

async function startPortalWithOutput(publicUrl: string): Promise<Portal> {
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
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("portal listening")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`portal exited (${code}): ${output}`)));
  });
  return { origin: `http://127.0.0.1:${port}`, output: () => output };
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

// Every page (each locale-prefixed page, its locale-less redirect and its data request), the
// theme switch and the /api/kratos proxy: pages carry flows, CSRF tokens, TOTP secrets, backup
// codes, challenges and session details, so nothing but the built static files may be cached.
const pagePaths = [
  "/",
  "/en",
  "/es",
  ...portalPages.flatMap((page) => [`/en/${page}`, `/es/${page}?flow=x`, `/${page}?flow=x`]),
  "/en/login.data",
  "/en/settings.data?flow=x",
  "/en/no-such-page",
  "/no-such-page",
  "/favicon.ico",
];

describe("portal caching and permissions", () => {
  it("every page, the theme switch and the identity proxy: no-store, Pragma no-cache, Permissions-Policy; static files stay cacheable", async () => {
    const { origin } = await startPortalWithOutput("http://localhost:3000");
    const answers: [string, Response][] = [];
    for (const path of pagePaths) {
      answers.push([`GET ${path}`, await fetch(`${origin}${path}`, { redirect: "manual" })]);
    }
    answers.push([
      "POST /theme",
      await fetch(`${origin}/theme`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin },
        body: "theme=dark&returnTo=/en/login",
      }),
    ]);
    for (const path of ["/api/kratos/sessions/whoami", "/api/kratos/self-service/login/browser"]) {
      answers.push([`GET ${path}`, await fetch(`${origin}${path}`, { redirect: "manual" })]);
    }
    for (const [what, response] of answers) {
      await response.body?.cancel();
      expect(response.status, what).toBeLessThan(600);
      expect(response.headers.get("cache-control"), what).toBe("no-store");
      expect(response.headers.get("pragma"), what).toBe("no-cache");
      expect(response.headers.get("permissions-policy"), what).toMatch(/(^|,\s*)camera=\(\)/);
      expect(response.headers.get("x-content-type-options"), what).toBe("nosniff");
    }

    // The built favicon and the fingerprinted assets keep their long-lived caching.
    // A page that renders without the identity service (the sign-in page answers 503 "Starting…"
    // while nothing listens there, a page without scripts).
    const page = await (await fetch(`${origin}/en/no-such-page`)).text();
    const asset = /\/assets\/[\w.-]+\.js/.exec(page)?.[0];
    expect(asset).toBeDefined();
    for (const path of ["/favicon.svg", asset ?? ""]) {
      const response = await fetch(`${origin}${path}`);
      await response.body?.cancel();
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toMatch(/^public, max-age=\d+/);
      expect(response.headers.get("pragma"), path).toBeNull();
      expect(response.headers.get("permissions-policy"), path).toMatch(/camera=\(\)/);
    }

    // Route discovery's answer (the build's route table) keeps React Router's own caching alone,
    // so the browser asks once per build, not on every page (issue 20).
    const version = /"version": "(\w+)"/.exec(page)?.[1];
    expect(version).toBeDefined();
    const manifest = await fetch(
      `${origin}/__manifest?paths=${encodeURIComponent("/en/login,/en/registration")}&version=${version ?? ""}`,
    );
    expect(manifest.status).toBe(200);
    expect(await manifest.json()).toHaveProperty("routes/login/route");
    expect(manifest.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(manifest.headers.get("pragma")).toBeNull();
  }, 90_000);

  it("logs paths without their query, so flows, challenges and tokens stay out of the log", async () => {
    const portal = await startPortalWithOutput("http://localhost:3000");
    const secrets = ["flow-secret-0123456789", "challenge-secret-0123456789", "token-0123456789"];
    const paths = [
      `/en/login?flow=${secrets[0]}&login_challenge=${secrets[1]}`,
      `/api/kratos/self-service/logout?token=${secrets[2]}`,
    ];
    for (const path of paths) {
      const response = await fetch(`${portal.origin}${path}`, {
        redirect: "manual",
        headers: { cookie: `ory_kratos_session=${secrets[2]}` },
      });
      await response.body?.cancel();
    }
    await expect.poll(() => portal.output(), { timeout: 20_000 }).toContain("/self-service/logout");
    for (const secret of secrets) expect(portal.output()).not.toContain(secret);
  }, 90_000);
});
