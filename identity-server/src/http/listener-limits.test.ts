import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config/config.ts";
import { slowClient } from "../test-support/slow-client.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// Every listener of the embedded server (identity public and admin, OAuth2 public and admin,
// mailbox) with short IDENTITY_HTTP_* timeouts: a client that trickles its headers or its body
// (slowloris) is answered 408 and cut off, an idle keep-alive connection is closed. Before, the
// Fastify listeners had no request timeout at all and kept idle connections 72 s.

const headersTimeoutMs = 1000;
const requestTimeoutMs = 2000;
const keepAliveTimeoutMs = 500;

describe("listener timeouts", () => {
  let server: TestServer;
  let listeners: [string, string][];
  beforeAll(async () => {
    server = await startTestServer({
      IDENTITY_HTTP_HEADERS_TIMEOUT: `${headersTimeoutMs}ms`,
      IDENTITY_HTTP_REQUEST_TIMEOUT: `${requestTimeoutMs}ms`,
      IDENTITY_HTTP_KEEP_ALIVE_TIMEOUT: `${keepAliveTimeoutMs}ms`,
    });
    const oauth2 = server.server.oauth2;
    listeners = [
      ["identity public", server.publicUrl],
      ["identity admin", server.adminUrl],
      ["mailbox", server.mailboxUrl],
      ["OAuth2 public", oauth2?.publicUrl ?? ""],
      ["OAuth2 admin", oauth2?.adminUrl ?? ""],
    ];
  }, 60_000);
  afterAll(() => server.stop());

  it("cuts off a client that trickles its headers, on every listener", async () => {
    const results = await Promise.all(
      listeners.map(([, url]) =>
        slowClient(url, "GET /health/alive HTTP/1.1\r\nHost: localhost\r\n", "X-Slow: 1\r\n"),
      ),
    );
    results.forEach((closed, i) => {
      const name = listeners[i]?.[0];
      expect(closed.received, name).toMatch(/^HTTP\/1\.1 408 /);
      expect(closed.ms, name).toBeGreaterThanOrEqual(headersTimeoutMs - 50);
      // Generous for a busy 2-core machine (Node's default headers timeout is 60 s).
      expect(closed.ms, name).toBeLessThan(8000);
    });
  }, 30_000);

  it("cuts off a client that trickles its body, on every listener", async () => {
    const results = await Promise.all(
      listeners.map(([name, url]) =>
        slowClient(
          url,
          // Paths that read a body: the OAuth2 service answers unknown routes before reading one.
          `POST ${name === "OAuth2 public" ? "/oauth2/token" : "/health/alive"} HTTP/1.1\r\n` +
            "Host: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
            "Content-Length: 1000\r\n\r\ngrant_type=",
          "a",
        ),
      ),
    );
    results.forEach((closed, i) => {
      const name = listeners[i]?.[0];
      // The mailbox has no route that takes a body: it answers 404 at once, then still closes.
      expect(closed.received, name).toMatch(
        name === "mailbox" ? /^HTTP\/1\.1 404 / : /^HTTP\/1\.1 408 /,
      );
      expect(closed.ms, name).toBeGreaterThanOrEqual(requestTimeoutMs - 50);
      // Without a request timeout Fastify waited for the body for ever.
      expect(closed.ms, name).toBeLessThan(10_000);
    });
  }, 30_000);

  it("closes idle keep-alive connections, on every listener", async () => {
    const results = await Promise.all(
      listeners.map(([, url]) =>
        slowClient(url, "GET /health/alive HTTP/1.1\r\nHost: localhost\r\n\r\n", undefined),
      ),
    );
    results.forEach((closed, i) => {
      const name = listeners[i]?.[0];
      expect(closed.received, name).toMatch(/^HTTP\/1\.1 \d{3} /);
      // Node adds 1 s to the configured time; Fastify's default kept them 72 s.
      expect(closed.ms, name).toBeLessThan(3000);
    });
  }, 30_000);
});

describe("IDENTITY_HTTP_* configuration", () => {
  it("defaults to 10 s for headers, 30 s per request and 5 s idle", () => {
    expect(loadConfig({}).listener).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    });
  });

  it.each([
    ["IDENTITY_HTTP_HEADERS_TIMEOUT", "0s"],
    ["IDENTITY_HTTP_REQUEST_TIMEOUT", "soon"],
    ["IDENTITY_HTTP_KEEP_ALIVE_TIMEOUT", "-1s"],
  ])("rejects a bad %s and names it", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}: `));
  });

  it("rejects a headers timeout longer than the request timeout (Node would refuse it)", () => {
    expect(() =>
      loadConfig({ IDENTITY_HTTP_HEADERS_TIMEOUT: "40s", IDENTITY_HTTP_REQUEST_TIMEOUT: "30s" }),
    ).toThrow(
      /IDENTITY_HTTP_HEADERS_TIMEOUT: must not be longer than IDENTITY_HTTP_REQUEST_TIMEOUT/,
    );
  });
});
