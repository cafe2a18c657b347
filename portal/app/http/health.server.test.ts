// @vitest-environment node
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startPortalProcess, type PortalProcess } from "../../test/portal-process.ts";

// Kratos' health endpoints and the SIGTERM drain, against the real server process.

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET on a connection of its own (no pool): a drained portal closes idle pooled ones. */
function get(url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res: IncomingMessage) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

/** A fake identity service: ready, and holding `/slow` until the test lets it answer. */
function fakeIdentity() {
  const held: Array<() => void> = [];
  const arrivals: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    if (req.url === "/health/ready") {
      res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
    } else if (req.url === "/slow") {
      held.push(() => res.writeHead(200, { "content-type": "text/plain" }).end("slow answer"));
      for (const arrived of arrivals.splice(0)) arrived();
    } else {
      res.writeHead(404).end();
    }
  });
  return {
    server,
    /** Resolves once a `/slow` request is being held. */
    slowArrived: () =>
      held.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => arrivals.push(resolve)),
    release: () => {
      for (const answer of held.splice(0)) answer();
    },
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  };
}

let identity: ReturnType<typeof fakeIdentity>;

beforeAll(async () => {
  identity = fakeIdentity();
  await new Promise<void>((resolve) => identity.server.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  identity.release();
  identity.server.closeAllConnections();
  await new Promise((resolve) => identity.server.close(resolve));
});

function expectUncacheableJson(answer: Answer) {
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  expect(answer.headers["cache-control"]).toBe("no-store");
}

describe("the portal's health endpoints", () => {
  let portal: PortalProcess;
  beforeAll(async () => {
    portal = await startPortalProcess({ KRATOS_PUBLIC_URL: identity.url() });
  }, 60_000);
  afterAll(() => portal.stop());

  it("answers /health/alive and /health/ready as Kratos does, uncacheable", async () => {
    for (const path of ["/health/alive", "/health/ready"]) {
      const answer = await get(`${portal.origin}${path}`);
      expect(answer.status, path).toBe(200);
      expect(JSON.parse(answer.body), path).toEqual({ status: "ok" });
      expectUncacheableJson(answer);
    }
  }, 30_000);

  it("keeps the probes out of the request log, which still logs pages", async () => {
    await get(`${portal.origin}/health/ready`);
    await get(`${portal.origin}/favicon.svg`);
    await portal.printed('"path":"/favicon.svg"');
    expect(portal.output()).not.toContain('"path":"/health/');
  }, 30_000);
});

describe("readiness without the identity service", () => {
  let portal: PortalProcess;
  // Nothing listens on port 1.
  beforeAll(async () => {
    portal = await startPortalProcess({ KRATOS_PUBLIC_URL: "http://127.0.0.1:1" });
  }, 60_000);
  afterAll(() => portal.stop());

  it("is 503 in Kratos' error shape while alive stays 200", async () => {
    const ready = await get(`${portal.origin}/health/ready`);
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({
      errors: { identity: "the identity service is not ready" },
    });
    expectUncacheableJson(ready);
    expect((await get(`${portal.origin}/health/alive`)).status).toBe(200);
  }, 30_000);
});

describe("SIGTERM", () => {
  let portal: PortalProcess | undefined;
  afterEach(async () => {
    identity.release();
    await portal?.stop();
  });

  it("lets a request in flight finish while readiness answers 503, then exits", async () => {
    portal = await startPortalProcess({
      KRATOS_PUBLIC_URL: identity.url(),
      PORTAL_SHUTDOWN_GRACE_MS: "60000",
    });
    expect((await get(`${portal.origin}/health/ready`)).status).toBe(200);

    const slow = get(`${portal.origin}/api/kratos/slow`);
    await identity.slowArrived();
    portal.signal("SIGTERM");
    await portal.printed("portal draining");

    const ready = await get(`${portal.origin}/health/ready`);
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ errors: { shutdown: "the portal is shutting down" } });
    expectUncacheableJson(ready);
    expect(ready.headers.connection).toBe("close");
    // Still alive, and still serving whatever the balancer sends before it noticed.
    expect((await get(`${portal.origin}/health/alive`)).status).toBe(200);
    expect(portal.output()).not.toContain("portal stopped");

    identity.release();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("slow answer");
    expect(await portal.exited).toBe(0);
    expect(portal.output()).toContain("portal stopped");
    expect(portal.output()).not.toContain("still in flight");
  }, 60_000);

  it("cuts off what is still in flight when the grace period is over", async () => {
    const graceMs = 1000;
    portal = await startPortalProcess({
      KRATOS_PUBLIC_URL: identity.url(),
      PORTAL_SHUTDOWN_GRACE_MS: String(graceMs),
    });
    const slow = get(`${portal.origin}/api/kratos/slow`).then(
      (answer) => answer,
      (error: unknown) => error,
    );
    await identity.slowArrived();
    const signalled = performance.now();
    portal.signal("SIGTERM");

    expect(await portal.exited).toBe(0);
    const ms = performance.now() - signalled;
    expect(ms).toBeGreaterThanOrEqual(graceMs - 50);
    // Generous for a busy machine; without the grace period it would wait for the request.
    expect(ms).toBeLessThan(15_000);
    expect(await slow).toBeInstanceOf(Error);
    expect(portal.output()).toContain('"cut":1');
  }, 60_000);
});
