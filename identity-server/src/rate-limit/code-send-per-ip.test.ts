import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, CookieJar, type TestResponse } from "../test-support/http-client.ts";
import {
  csrfTokenOf,
  messageIds,
  registerNative,
  strongPassword,
} from "../test-support/flow-helpers.ts";
import { passwordSignIn } from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// The independent attack on issue 12: recovery for unknown addresses sends a "no account" notice,
// and only the per-address limit applied, so one client could make the server mail any number of
// strangers (30 addresses in a loop were all mailed). Now every send also counts per client IP.

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({}, undefined, { freezeClock: true });
});
afterAll(async () => {
  await ts.stop();
});

const json = { "content-type": "application/json", accept: "application/json" };

async function ask(kind: "recovery" | "verification", address: string, ip: string) {
  const api = ts.native();
  const flow =
    kind === "recovery"
      ? await api.createNativeRecoveryFlow()
      : await api.createNativeVerificationFlow();
  return call(`${ts.publicUrl}/self-service/${kind}?flow=${flow.id}`, {
    method: "POST",
    headers: { ...json, "x-forwarded-for": ip },
    body: JSON.stringify({ method: "code", email: address }),
  });
}

/** The answer without what differs between flows (ids, times, the csrf token, the address). */
function shape(answer: TestResponse): unknown {
  const body = answer.body as { ui: { messages?: unknown[] } };
  return {
    status: answer.status,
    retryAfter: answer.headers.get("retry-after"),
    messages: body.ui.messages,
  };
}

describe("codes and notices sent per client IP (default 20 per 15 minutes)", () => {
  it("stops one client from mailing any number of addresses, known or not, with the per-address answer", async () => {
    await ts.admin().createIdentity({
      createIdentityBody: { schema_id: "default", traits: { email: "member@example.net" } },
    });
    const ip = "198.51.100.20";
    for (let i = 0; i < 20; i++) {
      const kind = i % 2 === 0 ? "recovery" : "verification";
      const sent = await ask(kind, `victim-${i}@example.net`, ip);
      expect(sent.status).toBe(200);
    }
    ts.advanceClock(60_000);
    const unknown = await ask("recovery", "victim-20@example.net", ip);
    const known = await ask("recovery", "member@example.net", ip);
    expect(shape(unknown)).toEqual({
      status: 400,
      retryAfter: "840",
      messages: [
        {
          id: 9010008,
          text: "Too many codes were requested for this address. Try again in 14 minutes.",
          type: "error",
          context: { retry_after_seconds: 840, wait: "14 minutes" },
        },
      ],
    });
    expect(shape(known)).toEqual(shape(unknown));
    expect(await ts.messagesTo("victim-20@example.net")).toEqual([]);
    expect(await ts.messagesTo("member@example.net")).toEqual([]);
    // 20 notices went out, one per address; another client is not affected.
    expect(await ts.messagesTo("victim-0@example.net")).toHaveLength(1);
    expect((await ask("recovery", "victim-20@example.net", "198.51.100.21")).status).toBe(200);

    ts.advanceClock(14 * 60_000);
    expect((await ask("recovery", "victim-21@example.net", ip)).status).toBe(200);
  });

  it("counts the verification codes of registrations, which go on without one when limited", async () => {
    const ip = "198.51.100.30";
    for (let i = 0; i < 20; i++) await ask("recovery", `filler-${i}@example.net`, ip);
    const flow = await ts.native().createNativeRegistrationFlow();
    const registered = await call(`${ts.publicUrl}/self-service/registration?flow=${flow.id}`, {
      method: "POST",
      headers: { ...json, "x-forwarded-for": ip },
      body: JSON.stringify({
        method: "password",
        password: strongPassword,
        traits: { email: "late-signup@example.net" },
      }),
    });
    expect(registered.status).toBe(200);
    expect(await ts.messagesTo("late-signup@example.net")).toEqual([]);
  });

  it("does not count or refuse the sends of the account's own known browser", async () => {
    const ip = "198.51.100.40";
    await registerNative(ts, "owner-nat@example.net");
    const { browser, answer } = await passwordSignIn(ts, "owner-nat@example.net", ts.browser(), {
      "x-forwarded-for": ip,
    });
    expect(answer.status).toBe(200);
    browser.jar.cookies.delete("ory_kratos_session");
    for (let i = 0; i < 20; i++) await ask("recovery", `office-${i}@example.net`, ip);
    expect((await ask("recovery", "owner-nat@example.net", ip)).status).toBe(400);

    const jar: CookieJar = browser.jar;
    const created = await call(`${ts.publicUrl}/self-service/recovery/browser`, {
      jar,
      headers: { accept: "application/json" },
    });
    const flow = created.body as { id: string; ui: { nodes: never[] } };
    const own = await call(`${ts.publicUrl}/self-service/recovery?flow=${flow.id}`, {
      method: "POST",
      jar,
      headers: { ...json, "x-forwarded-for": ip },
      body: JSON.stringify({
        method: "code",
        email: "owner-nat@example.net",
        csrf_token: csrfTokenOf(flow),
      }),
    });
    expect(own.status).toBe(200);
    expect(messageIds(own.body as never, "")).toEqual([1060003]);
  });
});
