// @vitest-environment node
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startPortalProcess, type PortalProcess } from "../../test/portal-process.ts";
import { vendorJson } from "../../test/vendor-flows.ts";
import { startingPage } from "./starting-page.server.ts";

// The real portal, started before the identity service it points at (as `npm start` may have it),
// then with the service up, then with the service gone again.

const flow = { ...(vendorJson("elements.login.1fa.password.initial.json") as object), id: "f1" };
let flowBody = JSON.stringify(flow);

function fakeIdentity(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://fake");
  req.resume();
  const json = { "content-type": "application/json" };
  if (url.pathname === "/health/ready") {
    res.writeHead(200, json).end('{"status":"ok"}');
  } else if (url.pathname === "/sessions/whoami") {
    res.writeHead(401, json).end('{"error":{"code":401}}');
  } else if (url.pathname === "/self-service/login/flows") {
    res.writeHead(200, json).end(flowBody);
  } else {
    res.writeHead(404, json).end("{}");
  }
}

let identityPort: number;
let identity: Server | undefined;
let portal: PortalProcess;

function startIdentity(): Promise<void> {
  identity = createServer(fakeIdentity);
  return new Promise((resolve) => identity?.listen(identityPort, "127.0.0.1", resolve));
}

function stopIdentity(): Promise<void> {
  const server = identity;
  identity = undefined;
  if (!server) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

beforeAll(async () => {
  identityPort = await freePort();
  portal = await startPortalProcess({ KRATOS_PUBLIC_URL: `http://127.0.0.1:${identityPort}` });
}, 60_000);

afterAll(async () => {
  await portal?.stop();
  await stopIdentity();
});

const page = (path: string, init?: RequestInit) =>
  fetch(`${portal.origin}${path}`, { redirect: "manual", ...init });

describe("a page while the identity service is not up", () => {
  it("answers 503 with a page to try again from, not the error page", async () => {
    const response = await page("/en/login?flow=f1");
    const html = await response.text();
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("3");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("<h1>Starting…</h1>");
    // No timed refresh (WCAG 2.2.1): the person chooses when to try again.
    expect(html).not.toContain('http-equiv="refresh"');
    expect(html).toContain('<a href="/en/login?flow=f1">Try again now</a>');
    expect(html).not.toContain("Something went wrong");
    // The portal's own security headers still apply to it.
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
  });

  it("speaks the page's language", async () => {
    const spanish = await (await page("/es/login")).text();
    expect(spanish).toContain('<html lang="es">');
    expect(spanish).toContain("<h1>Iniciando…</h1>");
    expect(spanish).toContain("Intentar de nuevo ahora");
  });

  it("answers a form post the same way, retrying the page's address", async () => {
    const response = await page("/en/login?flow=f1", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: portal.origin },
      body: new URLSearchParams({ identifier: "jane@example.gov", method: "password" }),
    });
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('<a href="/en/login?flow=f1">');
  });
});

describe("the same portal once the identity service is up", () => {
  beforeAll(startIdentity);

  it("shows the page", async () => {
    const response = await page("/en/login?flow=f1");
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/<input[^>]*name="identifier"/);
  });

  it("keeps a failure of the page its own: the generic error, not 'starting'", async () => {
    // An answer the portal cannot read, from a service that is up.
    flowBody = "{not json";
    const response = await page("/en/login?flow=f1");
    flowBody = JSON.stringify(flow);
    // The portal's answer to an unreadable answer (502), unchanged by the check that follows.
    expect(response.status).toBe(502);
    const html = await response.text();
    expect(html).toContain("Something went wrong");
    expect(html).not.toContain("<h1>Starting…</h1>");
  });

  it("says 'starting' again when the service goes away", async () => {
    await stopIdentity();
    const response = await page("/en/login?flow=f1");
    expect(response.status).toBe(503);
    expect(await response.text()).toContain("<h1>Starting…</h1>");
  });
});

describe("the starting page's language and retry address", () => {
  const pageFor = (path: string, headers: Record<string, string> = {}) =>
    startingPage(new Request(`http://localhost${path}`, { headers }));

  it("follows the browser where the address names no language", () => {
    const page = pageFor("/consent?consent_challenge=c", { "accept-language": "es-MX,es;q=0.9" });
    expect(page.headers["Content-Language"]).toBe("es");
    expect(page.body).toContain("<h1>Iniciando…</h1>");
    expect(pageFor("/consent").body).toContain('<html lang="en">');
  });

  it("lets the address's language win over the browser's", () => {
    expect(pageFor("/en/login", { "accept-language": "es" }).body).toContain('<html lang="en">');
  });

  it("escapes the address it links back to", () => {
    expect(pageFor("/en/login?flow=f1&x='y").body).toContain('href="/en/login?flow=f1&amp;x=%27y"');
    expect(pageFor('/en/login?x="><script>alert(1)</script>').body).not.toContain("<script>");
  });
});
