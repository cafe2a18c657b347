import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { rawRequest, type RawRequest } from "./raw-http.ts";

// Regressions found by the fuzzer (fuzz.test.ts): requests that Node's HTTP parser or Fastify's
// router refuse before any route runs were answered with Fastify's `{statusCode, error, message}`,
// an empty 400, or (CONNECT) no answer at all. Each listener now answers in its own error shape.

let ts: TestServer;
let ports: { kratos: number[]; hydra: number[] };
beforeAll(async () => {
  ts = await startTestServer();
  const oauth2 = ts.server.oauth2;
  if (!oauth2) throw new Error("no OAuth2 service");
  const port = (url: string) => Number(new URL(url).port);
  ports = {
    kratos: [port(ts.publicUrl), port(ts.adminUrl)],
    hydra: [port(oauth2.publicUrl), port(oauth2.adminUrl)],
  };
});
afterAll(async () => {
  await ts.stop();
});

const get = (target: string, headers: [string, string][] = []): RawRequest => ({
  method: "GET",
  target,
  headers,
});

const broken: [string, RawRequest, number][] = [
  ["a bare CR in a header value", get("/health/alive", [["X-Fuzz", "x\rY"]]), 400],
  ["a NUL in a header value", get("/health/alive", [["X-Fuzz", "x\u0000y"]]), 400],
  ["headers over 16 KiB", get("/health/alive", [["X-Huge", "a".repeat(20_000)]]), 431],
  ["a request target without a leading slash", get("health/alive"), 400],
  ["a CONNECT request", { method: "CONNECT", target: "/health/alive", headers: [] }, 405],
];

describe("requests refused before routing", () => {
  it.each(broken)("answers %s in Kratos' error shape", async (_name, request, status) => {
    for (const port of ports.kratos) {
      const response = await rawRequest(port, request);
      expect(response.status).toBe(status);
      expect(response.headers["content-type"]).toContain("application/json");
      const { error } = JSON.parse(response.body) as { error: Record<string, unknown> };
      expect(error.code).toBe(status);
      expect(typeof error.status).toBe("string");
      expect(typeof error.message).toBe("string");
    }
  });

  it.each(broken)("answers %s in Hydra's error shape", async (_name, request, status) => {
    for (const port of ports.hydra) {
      const response = await rawRequest(port, request);
      expect(response.status).toBe(status);
      const body = JSON.parse(response.body) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(["error", "error_description"]);
      expect(body.error).toBe("invalid_request");
      expect(typeof body.error_description).toBe("string");
    }
  });

  it("answers a path parameter over the router's length limit in Kratos' error shape", async () => {
    const response = await rawRequest(
      ports.kratos[1] as number,
      get(`/admin/identities/${"a".repeat(3000)}`),
    );
    expect(response.status).toBe(414);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 414 } });
  });

  it("answers a URL the router cannot decode in Kratos' error shape", async () => {
    const response = await rawRequest(ports.kratos[1] as number, get("/admin/identities/%zz"));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: response.status } });
  });

  it("reads an absolute-form request target as its path and query", async () => {
    // Found by the soak run: handlers prefixed the absolute URL with a base URL (a 500).
    const [publicPort, adminPort] = ports.kratos as [number, number];
    const recovery = await rawRequest(adminPort, {
      method: "POST",
      target: "http://127.0.0.1/admin/recovery/link?flow=a&flow=b",
      headers: [["Content-Type", "application/json"]],
      body: "{}",
    });
    expect(recovery.status).toBe(404);
    expect(JSON.parse(recovery.body)).toMatchObject({ error: { code: 404 } });
    const flow = await rawRequest(publicPort, {
      method: "GET",
      target: "http://evil.example/self-service/login/api?refresh=true",
      headers: [],
    });
    expect(flow.status).toBe(200);
    const { request_url: requestUrl } = JSON.parse(flow.body) as { request_url: string };
    expect(new URL(requestUrl).pathname).toMatch(/[^/]\/self-service\/login\/api$/);
    expect(requestUrl).not.toContain("evil.example");
  });
});
