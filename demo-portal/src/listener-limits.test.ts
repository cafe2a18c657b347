import { slowClient } from "../../identity-server/src/test-support/slow-client.ts";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDemoPortal } from "./app.ts";
import { loadDemoConfig } from "./config.ts";

// The demo's listener with short DEMO_HTTP_* timeouts: a client that trickles its headers or its
// body (slowloris) is answered 408 and cut off, an idle keep-alive connection is closed. Before,
// Fastify had no request timeout and kept idle connections 72 s.

const headersTimeoutMs = 1000;
const requestTimeoutMs = 2000;
const keepAliveTimeoutMs = 500;

describe("the demo's listener", () => {
  let demo: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    demo = buildDemoPortal(
      loadDemoConfig({
        // Discovery is lazy: no OAuth2 service is needed for these requests.
        DEMO_OIDC_CLIENT_SECRET: "s3cret",
        LOG_LEVEL: "silent",
        DEMO_HTTP_HEADERS_TIMEOUT_MS: String(headersTimeoutMs),
        DEMO_HTTP_REQUEST_TIMEOUT_MS: String(requestTimeoutMs),
        DEMO_HTTP_KEEP_ALIVE_TIMEOUT_MS: String(keepAliveTimeoutMs),
      }),
    );
    await demo.listen({ host: "127.0.0.1", port: 0 });
    port = (demo.server.address() as AddressInfo).port;
  });
  afterAll(() => demo.close());

  it("cuts off a client that trickles its headers", async () => {
    const closed = await slowClient(
      `http://127.0.0.1:${port}`,
      "GET / HTTP/1.1\r\nHost: localhost\r\n",
      "X-Slow: 1\r\n",
    );
    expect(closed.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed.ms).toBeGreaterThanOrEqual(headersTimeoutMs - 50);
    // Generous for a busy 2-core machine (Node's default headers timeout is 60 s).
    expect(closed.ms).toBeLessThan(8000);
  }, 30_000);

  it("cuts off a client that trickles its body", async () => {
    const closed = await slowClient(
      `http://127.0.0.1:${port}`,
      "POST /auth/logout HTTP/1.1\r\nHost: localhost\r\n" +
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ntoken=",
      "a",
    );
    expect(closed.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed.ms).toBeGreaterThanOrEqual(requestTimeoutMs - 50);
    expect(closed.ms).toBeLessThan(10_000);
  }, 30_000);

  it("closes an idle keep-alive connection", async () => {
    const closed = await slowClient(
      `http://127.0.0.1:${port}`,
      "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n",
      undefined,
    );
    expect(closed.received).toMatch(/^HTTP\/1\.1 200 /);
    // Node adds 1 s to the configured time; Fastify's default kept it 72 s.
    expect(closed.ms).toBeLessThan(3000);
  }, 30_000);
});

describe("DEMO_HTTP_* configuration", () => {
  const required = { DEMO_OIDC_CLIENT_SECRET: "s3cret" };

  it("defaults to 10 s for headers, 30 s per request and 5 s idle", () => {
    expect(loadDemoConfig(required).listener).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    });
  });

  it("names a bad value, and a headers timeout longer than the request timeout", () => {
    expect(() => loadDemoConfig({ ...required, DEMO_HTTP_REQUEST_TIMEOUT_MS: "soon" })).toThrow(
      /DEMO_HTTP_REQUEST_TIMEOUT_MS: /,
    );
    expect(() => loadDemoConfig({ ...required, DEMO_HTTP_KEEP_ALIVE_TIMEOUT_MS: "0" })).toThrow(
      /DEMO_HTTP_KEEP_ALIVE_TIMEOUT_MS: /,
    );
    expect(() =>
      loadDemoConfig({
        ...required,
        DEMO_HTTP_HEADERS_TIMEOUT_MS: "40000",
        DEMO_HTTP_REQUEST_TIMEOUT_MS: "30000",
      }),
    ).toThrow(/DEMO_HTTP_HEADERS_TIMEOUT_MS: must not be longer than DEMO_HTTP_REQUEST_TIMEOUT_MS/);
  });
});
