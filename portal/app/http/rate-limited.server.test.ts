// @vitest-environment node
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startPortalProcess, type PortalProcess } from "../../test/portal-process.ts";
import { vendorJson } from "../../test/vendor-flows.ts";
import { retryAfterSeconds } from "./rate-limited.server.ts";

describe("the wait a 429 asks for", () => {
  const now = Date.parse("2026-10-21T07:28:00Z");
  const wait = (headers: Record<string, string>) => retryAfterSeconds(new Headers(headers), now);

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(wait({ "retry-after": "180" })).toBe(180);
    expect(wait({ "retry-after": " 7 " })).toBe(7);
    expect(wait({ "retry-after": "Wed, 21 Oct 2026 07:29:30 GMT" })).toBe(90);
  });

  it("falls back to Ory Network's x-ratelimit-reset", () => {
    expect(wait({ "x-ratelimit-reset": "12" })).toBe(12);
    expect(wait({ "retry-after": "30", "x-ratelimit-reset": "12" })).toBe(30);
  });

  it("gives nothing for a missing, garbled, past or absurd wait", () => {
    for (const value of ["", "soon", "-5", "0", "1.5", "1e3", "Wed, 21 Oct 2026 07:00:00 GMT"]) {
      expect(wait({ "retry-after": value }), value).toBeUndefined();
    }
    expect(wait({ "retry-after": "31536000" })).toBeUndefined();
    expect(wait({})).toBeUndefined();
  });
});

// The real portal in front of a fake identity service that is rate-limited like Ory Network.

interface Limit {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const oryJson: Limit = {
  status: 429,
  headers: { "content-type": "application/json", "retry-after": "180" },
  body: JSON.stringify({
    error: { code: 429, status: "Too Many Requests", message: "Too many requests" },
  }),
};
const edgeText: Limit = {
  status: 429,
  headers: { "content-type": "text/plain", "retry-after": "whenever" },
  body: "Too Many Requests",
};

const flow = { ...(vendorJson("elements.login.1fa.password.initial.json") as object), id: "f1" };
let createAnswer: Limit = oryJson;
let submitAnswer: Limit = oryJson;
let upstreamCalls: string[] = [];

function answer(res: ServerResponse, { status, headers, body }: Limit) {
  res.writeHead(status, headers).end(body);
}

function fakeIdentity(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? "/", "http://fake");
  upstreamCalls.push(`${req.method} ${url.pathname}`);
  req.resume();
  const json = { "content-type": "application/json" };
  if (url.pathname === "/sessions/whoami") {
    answer(res, { status: 401, headers: json, body: '{"error":{"code":401}}' });
  } else if (url.pathname === "/self-service/login/browser") {
    answer(res, createAnswer);
  } else if (url.pathname === "/self-service/login/flows") {
    answer(res, { status: 200, headers: json, body: JSON.stringify(flow) });
  } else if (url.pathname === "/self-service/login" && req.method === "POST") {
    answer(res, submitAnswer);
  } else {
    answer(res, { status: 404, headers: json, body: "{}" });
  }
}

let upstream: Server;
let portal: PortalProcess;

beforeAll(async () => {
  upstream = createServer(fakeIdentity);
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const { port } = upstream.address() as AddressInfo;
  portal = await startPortalProcess({ KRATOS_PUBLIC_URL: `http://127.0.0.1:${port}` });
}, 60_000);

afterAll(async () => {
  await portal?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
});

beforeEach(() => {
  upstreamCalls = [];
  createAnswer = oryJson;
  submitAnswer = oryJson;
});

const page = (path: string, init?: RequestInit) =>
  fetch(`${portal.origin}${path}`, { redirect: "manual", ...init });

describe("a rate-limited identity service, through the real portal", () => {
  it("shows the wait in English on a flow page that could not be created, with status 429", async () => {
    const response = await page("/en/login");
    const html = await response.text();
    expect(response.status).toBe(429);
    expect(html).toContain("Too many requests");
    expect(html).toContain("Try again in 3 minutes.");
    expect(upstreamCalls.filter((call) => call.includes("/login/browser"))).toHaveLength(1);
  });

  it("shows it in Spanish too", async () => {
    const html = await (await page("/es/login")).text();
    expect(html).toContain("Inténtelo de nuevo en 3 minutos.");
  });

  it("asks to try again in a moment when the edge answers plain text without a usable wait", async () => {
    createAnswer = edgeText;
    const response = await page("/en/login");
    expect(response.status).toBe(429);
    expect(await response.text()).toContain("Try again in a moment.");
  });

  it("keeps a no-JavaScript sign-in form with what was typed, but not the password", async () => {
    const response = await page("/en/login?flow=f1", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: portal.origin },
      body: new URLSearchParams({
        csrf_token: "t",
        identifier: "jane@example.gov",
        password: "not-shown-again-1234",
        method: "password",
      }),
    });
    const html = await response.text();
    expect(response.status).toBe(429);
    expect(html).toContain("Try again in 3 minutes.");
    expect(html).toMatch(/<input[^>]*name="identifier"[^>]*value="jane@example.gov"/);
    expect(html).not.toContain("not-shown-again-1234");
    // Submitted once, never retried.
    expect(upstreamCalls.filter((call) => call === "POST /self-service/login")).toHaveLength(1);
  });
});
