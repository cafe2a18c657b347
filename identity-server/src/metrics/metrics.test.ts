import { once } from "node:events";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureOf, registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { parsePrometheusText, sampleValue, type Sample } from "../test-support/prometheus-text.ts";
import { databaseFileName } from "../store/database.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text());
}

async function passwordLogin(identifier: string, password: string): Promise<unknown> {
  const api = ts.native();
  const flow = await api.createNativeLoginFlow();
  return api.updateLoginFlow({
    flow: flow.id,
    updateLoginFlowBody: { method: "password", identifier, password },
  });
}

describe("Prometheus metrics on the admin listeners", () => {
  it("counts sign-ins and failures by method, requests by route pattern, and codes sent", async () => {
    const before = await scrape(`${ts.adminUrl}/metrics/prometheus`);
    // Registration queues a verification code; wait for the courier to send it.
    const sent = once(ts.courier, "sent");
    await registerNative(ts, "metrics@example.com");
    await sent;
    await passwordLogin("metrics@example.com", strongPassword);
    const failure = await failureOf(passwordLogin("metrics@example.com", "not-the-password-1"));
    expect(failure.status).toBe(400);
    await fetch(`${ts.adminUrl}/admin/identities/${crypto.randomUUID()}`);

    const after = await scrape(`${ts.adminUrl}/admin/metrics/prometheus`);
    const delta = (name: string, labels: Record<string, string> = {}) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);

    expect(delta("identity_login_attempts_total", { method: "password", result: "success" })).toBe(
      1,
    );
    expect(delta("identity_login_attempts_total", { method: "password", result: "failure" })).toBe(
      1,
    );
    const login = { listener: "public", method: "POST", route: "/self-service/login" };
    expect(delta("identity_http_requests_total", { ...login, status: "200" })).toBe(1);
    expect(delta("identity_http_requests_total", { ...login, status: "400" })).toBe(1);
    expect(delta("identity_http_request_duration_seconds_count", { ...login, status: "200" })).toBe(
      1,
    );
    // The id is a route parameter, never a label value of its own.
    expect(
      delta("identity_http_requests_total", {
        listener: "admin",
        route: "/admin/identities/:id",
        status: "404",
      }),
    ).toBe(1);
    expect(after.some((sample) => /[0-9a-f]{8}-[0-9a-f]{4}-/.test(sample.labels.route ?? ""))).toBe(
      false,
    );
    expect(
      delta("identity_courier_messages_sent_total", {
        channel: "email",
        template: "verification_code_valid",
      }),
    ).toBe(1);
    expect(sampleValue(after, "identity_courier_queue_depth", { status: "queued" })).toBe(0);
    // prom-client's default metrics: resident memory and event-loop lag.
    expect(sampleValue(after, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(after.some((sample) => sample.name === "nodejs_eventloop_lag_seconds")).toBe(true);
  });

  it("counts rate-limit refusals by limit", async () => {
    const before = await scrape(`${ts.adminUrl}/metrics/prometheus`);
    // Wrong passwords until the per-identifier limit refuses one (9010007), and no further.
    let refused = false;
    for (let attempt = 0; attempt < 20 && !refused; attempt++) {
      const failure = await failureOf(
        passwordLogin("metrics@example.com", `wrong-password-${attempt}`),
      );
      expect(failure.status).toBe(400);
      refused = JSON.stringify(failure.body).includes("9010007");
    }
    expect(refused).toBe(true);
    const after = await scrape(`${ts.adminUrl}/metrics/prometheus`);
    const labels = { limit: "attempts" };
    expect(
      sampleValue(after, "identity_rate_limit_refusals_total", labels) -
        sampleValue(before, "identity_rate_limit_refusals_total", labels),
    ).toBe(1);
  });

  it("serves the OAuth2 service's requests on the OAuth2 admin listener from the same registry", async () => {
    const oauth2 = ts.server.oauth2;
    if (!oauth2) throw new Error("the OAuth2 service is not running");
    await fetch(`${oauth2.publicUrl}/.well-known/openid-configuration`);
    await fetch(`${oauth2.publicUrl}/oauth2/auth/${crypto.randomUUID()}`);
    const samples = await scrape(`${oauth2.adminUrl}/admin/metrics/prometheus`);
    expect(
      sampleValue(samples, "identity_http_requests_total", {
        listener: "oauth2-public",
        route: "/.well-known/openid-configuration",
        status: "200",
      }),
    ).toBe(1);
    expect(
      sampleValue(samples, "identity_http_requests_total", {
        listener: "oauth2-public",
        route: "/oauth2/auth/:uid",
      }),
    ).toBe(1);
    // The identity server's own numbers are in the same registry.
    expect(sampleValue(samples, "identity_login_attempts_total")).toBeGreaterThan(0);
  });

  it("counts statements that found the database locked by another process (SQLITE_BUSY)", async () => {
    const before = await scrape(`${ts.adminUrl}/metrics/prometheus`);
    // Another connection (as another process would) holds the write lock.
    const other = new DatabaseSync(path.join(ts.dataDir, databaseFileName));
    other.exec("BEGIN IMMEDIATE");
    try {
      // The write waits out the busy timeout (5 s), then fails.
      const created = await fetch(`${ts.adminUrl}/admin/identities`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ schema_id: "default", traits: { email: "busy@example.com" } }),
      });
      expect(created.status).toBe(500);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    const after = await scrape(`${ts.adminUrl}/metrics/prometheus`);
    const delta =
      sampleValue(after, "identity_database_busy_total") -
      sampleValue(before, "identity_database_busy_total");
    expect(delta).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it("is not served on the public listeners", async () => {
    expect((await fetch(`${ts.publicUrl}/metrics/prometheus`)).status).toBe(404);
    const oauth2 = ts.server.oauth2;
    expect((await fetch(`${oauth2?.publicUrl}/metrics/prometheus`)).status).toBe(404);
  });
});
