// @vitest-environment node
import { slowClient } from "../../../identity-server/src/test-support/slow-client.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPortalProcess, type PortalProcess } from "../../test/portal-process.ts";

// Slow and idle connections against the real server process, with short PORTAL_HTTP_* timeouts:
// a client that trickles its headers or body (slowloris) is cut off, an idle keep-alive
// connection is closed, oversized headers are refused.

const headersTimeoutMs = 1000;
const requestTimeoutMs = 2000;
const keepAliveTimeoutMs = 500;

describe("the portal's listener", () => {
  let portal: PortalProcess;
  beforeAll(async () => {
    portal = await startPortalProcess({
      PORTAL_HTTP_HEADERS_TIMEOUT_MS: String(headersTimeoutMs),
      PORTAL_HTTP_REQUEST_TIMEOUT_MS: String(requestTimeoutMs),
      PORTAL_HTTP_KEEP_ALIVE_TIMEOUT_MS: String(keepAliveTimeoutMs),
    });
  }, 60_000);
  afterAll(() => portal.stop());

  it("cuts off a client that trickles its headers (slowloris)", async () => {
    const closed = await slowClient(
      `http://127.0.0.1:${portal.port}`,
      "GET /en/login HTTP/1.1\r\nHost: localhost\r\n",
      "X-Slow: 1\r\n",
    );
    expect(closed.received).toMatch(/^HTTP\/1\.1 408 /);
    // 1 s allowed, swept every 250 ms; generous for a busy machine (Node's default was 60 s).
    expect(closed.ms).toBeGreaterThanOrEqual(headersTimeoutMs - 50);
    expect(closed.ms).toBeLessThan(8000);
  }, 30_000);

  it("cuts off a client that trickles its body", async () => {
    const closed = await slowClient(
      `http://127.0.0.1:${portal.port}`,
      "POST /theme HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
        "Content-Length: 1000\r\n\r\ntheme=dark",
      "&",
    );
    expect(closed.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed.ms).toBeGreaterThanOrEqual(requestTimeoutMs - 50);
    expect(closed.ms).toBeLessThan(10_000);
  }, 30_000);

  it("closes an idle keep-alive connection", async () => {
    const closed = await slowClient(
      `http://127.0.0.1:${portal.port}`,
      "GET /favicon.svg HTTP/1.1\r\nHost: localhost\r\n\r\n",
      undefined,
    );
    expect(closed.received).toMatch(/^HTTP\/1\.1 200 /);
    // Node adds 1 s to the configured time; its default kept the connection 6 s.
    expect(closed.ms).toBeLessThan(3000);
  }, 30_000);

  it("refuses headers over 16 KiB with 431", async () => {
    const closed = await slowClient(
      `http://127.0.0.1:${portal.port}`,
      `GET /en/login HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(17 * 1024)}\r\n\r\n`,
      undefined,
    );
    expect(closed.received).toMatch(/^HTTP\/1\.1 431 /);
  }, 30_000);
});

describe("the /api/kratos proxy without the identity service", () => {
  let portal: PortalProcess;
  beforeAll(async () => {
    // Nothing listens on port 1.
    portal = await startPortalProcess({ KRATOS_PUBLIC_URL: "http://127.0.0.1:1" });
  }, 60_000);
  afterAll(() => portal.stop());

  it("answers 502 in the identity service's error shape", async () => {
    const response = await fetch(`${portal.origin}/api/kratos/sessions/whoami`);
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      error: {
        code: 502,
        status: "Bad Gateway",
        reason: "The identity service did not answer.",
        message: "Bad Gateway",
      },
    });
  }, 30_000);
});
