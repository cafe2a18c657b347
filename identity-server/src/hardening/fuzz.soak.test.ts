import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { fuzzTarget, type FuzzTarget } from "./fuzz-targets.ts";
import { runFuzz } from "./fuzz.ts";
import { rawRequest } from "./raw-http.ts";

// The soak run of the request fuzzer (`npm run test:soak`): the quick run's generators, ≥ 10,000
// requests by default (HARDENING_SOAK_REQUESTS), on a new random seed each run
// (HARDENING_FUZZ_SEED replays one).
const requests = Number(process.env.HARDENING_SOAK_REQUESTS ?? 30_000);
const seed = process.env.HARDENING_FUZZ_SEED ? Number(process.env.HARDENING_FUZZ_SEED) : undefined;

let ts: TestServer;
let fuzz: FuzzTarget;
beforeAll(async () => {
  ts = await startTestServer();
  fuzz = await fuzzTarget(ts);
});
afterAll(async () => {
  await ts.stop();
});

describe("soak: fuzzed bad requests on every listener", () => {
  it(`answers ${requests} generated requests without a 5xx, in each listener's error shape`, async () => {
    const report = await runFuzz(fuzz, { requests, seed });
    expect(report.requests).toBeGreaterThanOrEqual(requests);
    console.log(
      `fuzz soak: ${report.requests} requests, statuses ${JSON.stringify(report.statuses)}`,
    );
    for (const [listener, port] of Object.entries(fuzz.ports)) {
      const target = listener === "mailbox" ? "/messages.json" : "/health/alive";
      const alive = await rawRequest(port, { method: "GET", target, headers: [] });
      expect(alive.status, listener).toBe(200);
    }
  });
});
