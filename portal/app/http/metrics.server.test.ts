// @vitest-environment node
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startPortalProcess, type PortalProcess } from "../../test/portal-process.ts";
import { identityEndpoint } from "./metrics.server.ts";

describe("the identity endpoint label", () => {
  it("takes ids out of the pages' own paths and gives the proxy one label", () => {
    expect(identityEndpoint({ source: "page", path: "/sessions/whoami" })).toBe("/sessions/whoami");
    expect(identityEndpoint({ source: "page", path: "/self-service/login/browser" })).toBe(
      "/self-service/login/browser",
    );
    expect(
      identityEndpoint({ source: "page", path: "/sessions/6a1f0c1e-3c4b-4f7e-9d2a-0b1c2d3e4f50" }),
    ).toBe("/sessions/:id");
    expect(identityEndpoint({ source: "proxy", path: "/anything/a-browser/asked-for" })).toBe(
      "/api/kratos/*",
    );
  });
});

// The real portal with PORTAL_METRICS_PORT, in front of a fake identity service: a few page
// views and proxied calls, then one scrape.

const flowId = "0d7c6f7e-1a2b-4c3d-8e9f-a0b1c2d3e4f5";
let identity: Server;
let portal: PortalProcess;
let metricsPort: number;

beforeAll(async () => {
  identity = createServer((req, res) => {
    req.resume();
    const path = (req.url ?? "/").split("?")[0];
    const json = { "content-type": "application/json" };
    if (path === "/limited") {
      res.writeHead(429, { ...json, "retry-after": "60" }).end('{"error":{"code":429}}');
    } else if (path === "/broken") {
      res.writeHead(500, json).end('{"error":{"code":500}}');
    } else if (path === "/self-service/login/browser") {
      // The login page's flow creation, refused: the page shows the rate-limit answer.
      res.writeHead(429, { ...json, "retry-after": "60" }).end('{"error":{"code":429}}');
    } else {
      res.writeHead(200, json).end("{}");
    }
  });
  await new Promise<void>((resolve) => identity.listen(0, "127.0.0.1", resolve));
  metricsPort = await freePort();
  portal = await startPortalProcess({
    KRATOS_PUBLIC_URL: `http://127.0.0.1:${(identity.address() as AddressInfo).port}`,
    PORTAL_METRICS_PORT: String(metricsPort),
  });
}, 60_000);

afterAll(async () => {
  await portal?.stop();
  identity.closeAllConnections();
  await new Promise((resolve) => identity.close(resolve));
});

const scrape = async () => {
  const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
};

/** The value of one series, found by its name and exact label set. */
function value(text: string, series: string): number | undefined {
  const line = text.split("\n").find((one) => one.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("the portal's metrics", () => {
  it("counts requests by route pattern and status, and the identity service's calls", async () => {
    for (const locale of ["en", "es", "en"]) {
      await (await fetch(`${portal.origin}/${locale}/login?x=1&ref=${flowId}`)).text();
    }
    await (await fetch(`${portal.origin}/api/kratos/sessions/whoami`)).text();
    await (await fetch(`${portal.origin}/api/kratos/limited`)).text();
    await (await fetch(`${portal.origin}/api/kratos/broken`)).text();
    await (await fetch(`${portal.origin}/favicon.svg`)).text();
    await (await fetch(`${portal.origin}/no/such/${flowId}`)).text();

    const text = await scrape();
    const login = 'method="GET",route="/:lang/login",status="429"';
    expect(value(text, `portal_http_requests_total{${login}}`)).toBe(3);
    expect(value(text, `portal_http_request_duration_seconds_count{${login}}`)).toBe(3);
    expect(text).toContain(`portal_http_request_duration_seconds_bucket{le="0.1",${login}}`);
    expect(
      value(text, 'portal_http_requests_total{method="GET",route="/api/kratos/*",status="200"}'),
    ).toBe(1);
    expect(
      value(text, 'portal_http_requests_total{method="GET",route="static",status="200"}'),
    ).toBe(1);
    expect(
      value(text, 'portal_http_requests_total{method="GET",route="/:lang/*",status="404"}'),
    ).toBe(1);
    // Patterns only: no id, query or made-up path became a label.
    expect(text).not.toContain(flowId);
    expect(text).not.toContain("x=1");
    expect(text).not.toContain("/no/such");

    const flowCreation = 'endpoint="/self-service/login/browser",status="429"';
    expect(value(text, `portal_identity_request_duration_seconds_count{${flowCreation}}`)).toBe(3);
    expect(
      value(text, 'portal_identity_rate_limited_total{endpoint="/self-service/login/browser"}'),
    ).toBe(3);
    expect(
      value(
        text,
        'portal_identity_request_duration_seconds_count{endpoint="/api/kratos/*",status="200"}',
      ),
    ).toBe(1);
    expect(value(text, 'portal_identity_rate_limited_total{endpoint="/api/kratos/*"}')).toBe(1);
    expect(
      value(
        text,
        'portal_identity_request_failures_total{endpoint="/api/kratos/*",reason="server_error"}',
      ),
    ).toBe(1);

    // prom-client's default metrics: event-loop lag and resident memory among them.
    expect(value(text, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(value(text, "process_resident_memory_bytes")).toBeGreaterThan(10 * 1024 * 1024);
  }, 60_000);

  it("counts an identity service that does not answer as a failure", async () => {
    const unreachable = await startPortalProcess({
      // Nothing listens on port 1.
      KRATOS_PUBLIC_URL: "http://127.0.0.1:1",
      PORTAL_METRICS_PORT: String(await freePort()),
    });
    try {
      await (await fetch(`${unreachable.origin}/api/kratos/sessions/whoami`)).text();
      await (await fetch(`${unreachable.origin}/en/login`)).text();
      const port = /portal metrics on http:\/\/127\.0\.0\.1:(\d+)/.exec(unreachable.output())?.[1];
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(
        value(
          text,
          'portal_identity_request_failures_total{endpoint="/api/kratos/*",reason="no_answer"}',
        ),
      ).toBe(1);
      expect(
        value(
          text,
          'portal_identity_request_failures_total{endpoint="/self-service/login/browser",reason="no_answer"}',
        ),
      ).toBe(1);
      expect(text).toContain(
        'portal_identity_request_duration_seconds_count{endpoint="/api/kratos/*",status="none"} 1',
      );
    } finally {
      await unreachable.stop();
    }
  }, 60_000);

  it("is served on the loopback metrics port only, never on the public one", async () => {
    expect(portal.output()).toContain(`portal metrics on http://127.0.0.1:${metricsPort}/metrics`);
    const publicAnswer = await fetch(`${portal.origin}/metrics`);
    expect(publicAnswer.status).toBe(404);
    expect(await publicAnswer.text()).not.toContain("# HELP");
    // Kratos' path for the same.
    const kratosPath = await fetch(`http://127.0.0.1:${metricsPort}/metrics/prometheus`);
    expect(await kratosPath.text()).toContain("# HELP portal_http_requests_total");
    const other = await fetch(`http://127.0.0.1:${metricsPort}/en/login`);
    expect(other.status).toBe(404);
  }, 30_000);
});
