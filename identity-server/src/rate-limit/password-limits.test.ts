import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as hasher from "../methods/password/hasher.ts";
import { call, CookieJar, type TestResponse } from "../test-support/http-client.ts";
import {
  csrfTokenOf,
  messageIds,
  registerNative,
  strongPassword,
} from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// Counts the argon2/bcrypt work the login does (the real functions still run), so "no hash was
// computed" is asserted by a counter, not by timing.
vi.mock("../methods/password/hasher.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../methods/password/hasher.ts")>();
  return {
    ...actual,
    verifyPassword: vi.fn(actual.verifyPassword),
    spendDummyVerification: vi.fn(actual.spendDummyVerification),
  };
});

const hashWork = () =>
  vi.mocked(hasher.verifyPassword).mock.calls.length +
  vi.mocked(hasher.spendDummyVerification).mock.calls.length;

interface UiMessage {
  id: number;
  text: string;
  type: string;
  context?: Record<string, unknown>;
}

function formMessages(answer: TestResponse): UiMessage[] {
  return (answer.body as { ui: { messages?: UiMessage[] } }).ui.messages ?? [];
}

/** One password attempt through a fresh native (JSON) login flow, optionally from another IP. */
async function attempt(
  ts: TestServer,
  identifier: string,
  password = "not-the-password-1",
  ip?: string,
): Promise<TestResponse> {
  const flow = await ts.native().createNativeLoginFlow();
  return call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      // The server trusts X-Forwarded-For from 127.0.0.1 (the portal's proxy), so this sets request.ip.
      ...(ip ? { "x-forwarded-for": ip } : {}),
    },
    body: JSON.stringify({ method: "password", identifier, password }),
  });
}

async function wrongTimes(ts: TestServer, n: number, identifier: string, ip?: string) {
  for (let i = 0; i < n; i++) {
    const answer = await attempt(ts, identifier, "not-the-password-1", ip);
    expect(messageIds(answer.body as never, "")).toEqual([4000006]);
  }
}

describe("wrong passwords per identifier (default 10 per 15 minutes)", () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer({}, undefined, { freezeClock: true });
    await registerNative(ts, "ada@example.com");
    await registerNative(ts, "bob@example.com");
  });
  afterAll(async () => {
    await ts.stop();
  });

  it("refuses the 11th attempt with 9010007 and the wait, without computing a hash", async () => {
    await wrongTimes(ts, 10, "ada@example.com");
    ts.advanceClock(2 * 60_000);
    const before = hashWork();
    // Even the right password is not checked while the identifier is limited.
    const answer = await attempt(ts, "ADA@example.com", strongPassword);
    expect(hashWork()).toBe(before);
    expect(answer.status).toBe(400);
    expect(answer.headers.get("retry-after")).toBe("780");
    expect(formMessages(answer)).toEqual([
      {
        id: 9010007,
        text: "Too many attempts. Try again in 13 minutes.",
        type: "error",
        context: { retry_after_seconds: 780, wait: "13 minutes" },
      },
    ]);
  });

  it("leaves other identifiers alone", async () => {
    const answer = await attempt(ts, "bob@example.com", strongPassword);
    expect(answer.status).toBe(200);
  });

  it("answers an unknown identifier exactly like a known one, also once it is limited", async () => {
    await wrongTimes(ts, 10, "nobody@example.com");
    const before = hashWork();
    const unknown = await attempt(ts, "nobody@example.com");
    const known = await attempt(ts, "ada@example.com");
    expect(hashWork()).toBe(before);
    expect(unknown.status).toBe(known.status);
    expect(formMessages(unknown)).toEqual([
      {
        id: 9010007,
        text: "Too many attempts. Try again in 15 minutes.",
        type: "error",
        context: { retry_after_seconds: 900, wait: "15 minutes" },
      },
    ]);
    expect(formMessages(known)[0]?.id).toBe(9010007);
  });

  it("lifts the limit once the oldest failure leaves the window, with the wait counting down", async () => {
    // ada's ten failures are 2 minutes old: 13 minutes left.
    ts.advanceClock(12 * 60_000 + 59_000);
    const almost = await attempt(ts, "ada@example.com");
    expect(formMessages(almost)[0]).toMatchObject({
      id: 9010007,
      text: "Too many attempts. Try again in 1 second.",
      context: { retry_after_seconds: 1 },
    });
    expect(almost.headers.get("retry-after")).toBe("1");
    ts.advanceClock(1000);
    const answer = await attempt(ts, "ada@example.com", strongPassword);
    expect(answer.status).toBe(200);
  });

  it("clears the identifier's failures on a successful login", async () => {
    await registerNative(ts, "cleo@example.com");
    await wrongTimes(ts, 9, "cleo@example.com");
    expect((await attempt(ts, "cleo@example.com", strongPassword)).status).toBe(200);
    await wrongTimes(ts, 10, "cleo@example.com");
    expect(formMessages(await attempt(ts, "cleo@example.com"))[0]?.id).toBe(9010007);
  });

  it("sends a browser form back to the UI (303) with the message in the flow", async () => {
    await registerNative(ts, "dora@example.com");
    await wrongTimes(ts, 10, "dora@example.com");
    const jar = new CookieJar();
    const created = await call(`${ts.publicUrl}/self-service/login/browser`, {
      jar,
      headers: { accept: "application/json" },
    });
    const flow = created.body as { id: string; ui: { nodes: never[] } };
    const form = new URLSearchParams({
      method: "password",
      identifier: "dora@example.com",
      password: strongPassword,
      csrf_token: csrfTokenOf(flow),
    });
    const answer = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: "POST",
      jar,
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: form.toString(),
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(`http://localhost:3000/login?flow=${flow.id}`);
    const shown = await call(`${ts.publicUrl}/self-service/login/flows?id=${flow.id}`, {
      jar,
      headers: { accept: "application/json" },
    });
    expect(formMessages(shown).map((m) => m.id)).toEqual([9010007]);
  });
});

describe("wrong passwords per client IP", () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer(
      { IDENTITY_RATE_LIMIT_PASSWORD_PER_IP: "5", IDENTITY_RATE_LIMIT_PASSWORD_WINDOW: "1h" },
      undefined,
      { freezeClock: true },
    );
    await registerNative(ts, "eve@example.com");
  });
  afterAll(async () => {
    await ts.stop();
  });

  it("refuses an IP that spread its failures over many identifiers; other IPs go on", async () => {
    for (let i = 0; i < 5; i++) await wrongTimes(ts, 1, `user${i}@example.com`, "203.0.113.7");
    const before = hashWork();
    const limited = await attempt(ts, "eve@example.com", strongPassword, "203.0.113.7");
    expect(hashWork()).toBe(before);
    expect(limited.headers.get("retry-after")).toBe("3600");
    expect(formMessages(limited)[0]).toMatchObject({
      id: 9010007,
      text: "Too many attempts. Try again in 60 minutes.",
    });
    const elsewhere = await attempt(ts, "eve@example.com", strongPassword, "198.51.100.2");
    expect(elsewhere.status).toBe(200);
  });
});

describe("limits set to 0", () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer({
      IDENTITY_RATE_LIMIT_PASSWORD_PER_IDENTIFIER: "0",
      IDENTITY_RATE_LIMIT_PASSWORD_PER_IP: "0",
    });
    await registerNative(ts, "fay@example.com");
  });
  afterAll(async () => {
    await ts.stop();
  });

  it("never refuse: 15 wrong passwords, then the right one signs in", async () => {
    await wrongTimes(ts, 15, "fay@example.com");
    expect((await attempt(ts, "fay@example.com", strongPassword)).status).toBe(200);
  });
});
