import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { rawRequest } from "./raw-http.ts";
import { fuzzTarget, type FuzzTarget } from "./fuzz-targets.ts";
import { runFuzz } from "./fuzz.ts";

// The quick run of the request fuzzer, part of `npm test` (the soak run, fuzz.soak.test.ts, sends
// ≥ 10,000 requests).
const requests = Number(process.env.HARDENING_FUZZ_REQUESTS ?? 2400);
// A fixed seed keeps `npm test` repeatable; the soak run draws a new one each time.
const seed = Number(process.env.HARDENING_FUZZ_SEED ?? 20_261_121);

let ts: TestServer;
let fuzz: FuzzTarget;
beforeAll(async () => {
  ts = await startTestServer();
  fuzz = await fuzzTarget(ts);
});
afterAll(async () => {
  await ts.stop();
});

describe("fuzzed bad requests on every listener", () => {
  it("enumerates the routes of every listener", () => {
    const count = (listener: string) => fuzz.routes.filter((r) => r.listener === listener).length;
    expect(count("kratos-public")).toBeGreaterThan(30);
    expect(count("kratos-admin")).toBeGreaterThan(20);
    expect(count("oauth2-public")).toBeGreaterThan(10);
    expect(count("oauth2-admin")).toBeGreaterThan(20);
    expect(count("mailbox")).toBeGreaterThan(1);
  });

  it(
    `answers ${requests} generated requests without a 5xx, in each listener's error shape`,
    { timeout: 120_000 },
    async () => {
      const report = await runFuzz(fuzz, { requests, seed });
      expect(report.requests).toBeGreaterThanOrEqual(requests);
      if (process.env.HARDENING_FUZZ_VERBOSE) {
        const routes: Record<string, number> = {};
        for (const route of fuzz.routes) routes[route.listener] = (routes[route.listener] ?? 0) + 1;
        console.log(JSON.stringify({ routes, statuses: report.statuses }));
      }
      // Every listener still answers (the mailbox has no health check; its JSON list serves).
      for (const [listener, port] of Object.entries(fuzz.ports)) {
        const target = listener === "mailbox" ? "/messages.json" : "/health/alive";
        const alive = await rawRequest(port, { method: "GET", target, headers: [] });
        expect(alive.status, listener).toBe(200);
      }
    },
  );
});
