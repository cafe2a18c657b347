// A cached whoami is sent from the bytes kept in the cache (whoami-cache.ts): what a client gets
// must be the very answer the store-read request got, header for header and byte for byte.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../test-support/http-client.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import { passwordSignIn } from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

interface RawAnswer {
  status: number;
  /** [name, value] in the order they were sent, as written on the wire. */
  headers: [string, string][];
  body: Buffer;
}

function raw(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          pairs.push([res.rawHeaders[i] ?? "", res.rawHeaders[i + 1] ?? ""]);
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** The headers with the per-request ones (correlation id, date) blanked. */
const stable = (answer: RawAnswer) =>
  answer.headers.map(([name, value]) =>
    /^(x-correlation-id|date)$/i.test(name) ? [name, "*"] : [name, value],
  );

const sessionHeaderNames = [
  "x-correlation-id",
  "cache-control",
  "pragma",
  "x-content-type-options",
  "permissions-policy",
  "x-kratos-authenticated-identity-id",
  "content-type",
  "content-length",
  "Date",
  "Connection",
  "Keep-Alive",
];

describe("a cached whoami", () => {
  it("sends the same status, headers in the same order and the same body bytes as the uncached one", async () => {
    const email = "answer-bytes@example.com";
    const { token, identityId } = await registerNative(ts, email);
    const { browser } = await passwordSignIn(ts, email);
    const cookie = browser.jar.header() ?? "";
    const auths: Record<string, string>[] = [{ "x-session-token": token }, { cookie }];
    for (const headers of auths) {
      const uncached = await raw(`${ts.publicUrl}/sessions/whoami`, headers);
      const cached = await raw(`${ts.publicUrl}/sessions/whoami`, headers);
      for (const answer of [uncached, cached]) {
        expect(answer.status).toBe(200);
        expect(answer.headers.map(([name]) => name)).toEqual(sessionHeaderNames);
        expect(new Map(answer.headers).get("content-length")).toBe(String(answer.body.length));
        expect(new Map(answer.headers).get("x-kratos-authenticated-identity-id")).toBe(identityId);
        expect(new Map(answer.headers).get("content-type")).toBe("application/json; charset=utf-8");
      }
      expect(stable(cached)).toEqual(stable(uncached));
      expect(cached.body.equals(uncached.body)).toBe(true);
      expect(JSON.parse(cached.body.toString())).toMatchObject({
        active: true,
        identity: { id: identityId, traits: { email } },
      });
      // The cached answer still validates against Kratos' OpenAPI document.
      const checked = await call(`${ts.publicUrl}/sessions/whoami`, { headers });
      expect(checked.status).toBe(200);
    }
  });

  it("leaves 401 answers as they were", async () => {
    const auths: Record<string, string>[] = [{}, { "x-session-token": "ory_st_unknown" }];
    for (const headers of auths) {
      const answer = await raw(`${ts.publicUrl}/sessions/whoami`, headers);
      expect(answer.status).toBe(401);
      expect(answer.headers.map(([name]) => name)).toEqual([
        "x-correlation-id",
        "cache-control",
        "pragma",
        "x-content-type-options",
        "permissions-policy",
        "content-type",
        "content-length",
        "Date",
        "Connection",
        "Keep-Alive",
      ]);
      expect(JSON.parse(answer.body.toString())).toEqual({
        error: {
          code: 401,
          status: "Unauthorized",
          reason: "No valid session credentials found in the request.",
          message: "The request could not be authorized",
        },
      });
    }
  });
});
