import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { fuzzTarget, type FuzzTarget } from "./fuzz-targets.ts";
import { rawRequest } from "./raw-http.ts";

// Regressions found by the soak run on the OAuth2 public listener (oidc-provider).

let ts: TestServer;
let fuzz: FuzzTarget;
beforeAll(async () => {
  ts = await startTestServer();
  fuzz = await fuzzTarget(ts);
});
afterAll(async () => {
  await ts.stop();
});

const clientId = () => fuzz.ids[fuzz.ids.length - 1] as string;

describe("the OAuth2 public listener", () => {
  it("answers the resume endpoint with an unknown interaction and a client_id 400, not 500", async () => {
    for (const uid of ["unknown", ";jsessionid=1"]) {
      const response = await rawRequest(fuzz.ports["oauth2-public"], {
        method: "GET",
        target: `/oauth2/auth/${uid}?client_id=${clientId()}`,
        headers: [],
      });
      expect(response.status, uid).toBe(400);
    }
  });

  it("routes an absolute-form request target by its path", async () => {
    const response = await rawRequest(fuzz.ports["oauth2-public"], {
      method: "GET",
      target: "http://evil.example/health/alive",
      headers: [],
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ status: "ok" });
  });
});
