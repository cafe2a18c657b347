import * as argon2 from "@node-rs/argon2";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { call, CookieJar } from "../test-support/http-client.ts";
import { csrfTokenOf, registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

// Account enumeration. Already covered elsewhere: identical 4000006 answers for an unknown
// identifier and a wrong password (flows/login/login.test.ts), recovery of an unknown address answered
// like a known one with nothing sent (flows/recovery/recovery.test.ts). Registration of an existing e-mail
// reveals it with 4000007, as Kratos does with account_enumeration.mitigate=false (its default;
// flows/registration/registration.test.ts). Here: the whole answers compared, and the argon2 work counted.

vi.mock("@node-rs/argon2", { spy: true });

const known = "enum-known@example.com";
let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
  await registerNative(ts, known);
});
afterAll(() => ts.stop());
beforeEach(() => {
  vi.mocked(argon2.verify).mockClear();
});

/** The answer with what differs per request (ids, tokens, times, the passkey challenge) blanked out. */
function normalized(text: string, flowId: string): string {
  return text
    .replaceAll(flowId, "<flow>")
    .replace(
      /"csrf_token","type":"hidden","value":"[^"]*"/g,
      '"csrf_token","type":"hidden","value":"<csrf>"',
    )
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<time>")
    .replace(/\\"challenge\\":\\"[\w-]+\\"/g, '\\"challenge\\":\\"<challenge>\\"')
    .replaceAll(known, "<identifier>")
    .replaceAll("enum-nobody@example.com", "<identifier>");
}

async function failedLogin(identifier: string, html: boolean) {
  const jar = new CookieJar();
  const init = await call(`${ts.publicUrl}/self-service/login/browser`, {
    jar,
    headers: { accept: "application/json" },
  });
  const flow = init.body as { id: string; ui: { nodes: never[] } };
  const fields = {
    method: "password",
    identifier,
    password: "not-the-password-1",
    csrf_token: csrfTokenOf(flow),
  };
  const answer = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
    jar,
    method: "POST",
    headers: html
      ? { "content-type": "application/x-www-form-urlencoded" }
      : { accept: "application/json", "content-type": "application/json" },
    body: html ? new URLSearchParams(fields) : JSON.stringify(fields),
  });
  return {
    status: answer.status,
    location: answer.headers.get("location")?.replaceAll(flow.id, "<flow>"),
    body: normalized(answer.text, flow.id),
    setCookies: answer.headers.getSetCookie().map((c) => c.split("=")[0]),
  };
}

describe("login with an unknown identifier", () => {
  it("answers exactly like a wrong password, for JSON and HTML", async () => {
    for (const html of [false, true]) {
      const wrongPassword = await failedLogin(known, html);
      const unknown = await failedLogin("enum-nobody@example.com", html);
      expect(unknown, html ? "html" : "json").toEqual(wrongPassword);
      expect(wrongPassword.status).toBe(html ? 303 : 400);
    }
  });

  it("still verifies a password hash, as many as for a known identifier", async () => {
    const verify = vi.mocked(argon2.verify);
    await failedLogin(known, false);
    const forKnown = verify.mock.calls.length;
    verify.mockClear();
    await failedLogin("enum-nobody@example.com", false);
    const forUnknown = verify.mock.calls.length;
    expect(forKnown).toBe(1);
    expect(forUnknown).toBe(forKnown);
  });
});
