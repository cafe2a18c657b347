import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseFileName } from "../store/database.ts";
import { call } from "../test-support/http-client.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.stop();
});

/**
 * The return_to code of an init code. Kratos reveals it only in the browser redirect that ends a
 * social sign-in; this server has none, so the test reads it where it is kept.
 */
function returnToCodeOf(initCode: string): string {
  const db = new DatabaseSync(path.join(ts.dataDir, databaseFileName), { readOnly: true });
  try {
    const row = db
      .prepare("select return_to_code from session_token_exchanges where init_code = ?")
      .get(initCode) as { return_to_code: string } | undefined;
    if (!row) throw new Error("no exchanger for this init code");
    return row.return_to_code;
  } finally {
    db.close();
  }
}

describe("session token exchange", () => {
  it("gives API login and registration flows an init code only when asked", async () => {
    const api = ts.native();
    const login = await api.createNativeLoginFlow({ returnSessionTokenExchangeCode: true });
    expect(login.session_token_exchange_code).toMatch(/^[A-Za-z0-9]{64}$/);
    const registration = await api.createNativeRegistrationFlow({
      returnSessionTokenExchangeCode: true,
    });
    expect(registration.session_token_exchange_code).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(registration.session_token_exchange_code).not.toBe(login.session_token_exchange_code);
    // Fetching the flow again shows the same code.
    const again = await api.getLoginFlow({ id: login.id });
    expect(again.session_token_exchange_code).toBe(login.session_token_exchange_code);

    expect((await api.createNativeLoginFlow()).session_token_exchange_code).toBeUndefined();
    const browser = await call(
      `${ts.publicUrl}/self-service/login/browser?return_session_token_exchange_code=true`,
      { headers: { accept: "application/json" } },
    );
    expect(browser.status).toBe(200);
    expect(browser.body).not.toHaveProperty("session_token_exchange_code");
    // Kratos parses the login flag as a Go bool, the registration flag only as "true".
    const loginT = await call(
      `${ts.publicUrl}/self-service/login/api?return_session_token_exchange_code=t`,
    );
    expect(loginT.body).toHaveProperty("session_token_exchange_code");
    const registrationT = await call(
      `${ts.publicUrl}/self-service/registration/api?return_session_token_exchange_code=t`,
    );
    expect(registrationT.body).not.toHaveProperty("session_token_exchange_code");
  });

  it("leaves a signed-in native client's login without a code", async () => {
    const { token } = await registerNative(ts, "exchange-signed-in@example.com");
    const refresh = await call(
      `${ts.publicUrl}/self-service/login/api?refresh=true&return_session_token_exchange_code=true`,
      { headers: { "x-session-token": token } },
    );
    expect(refresh.status).toBe(200);
    expect(refresh.body).not.toHaveProperty("session_token_exchange_code");
  });

  it("answers a pending exchange 422 with the flow, unknown pairs 404 and missing codes 400", async () => {
    const api = ts.native();
    const flow = await api.createNativeRegistrationFlow({ returnSessionTokenExchangeCode: true });
    const initCode = flow.session_token_exchange_code ?? "";
    const returnToCode = returnToCodeOf(initCode);

    const pending = await call(
      `${ts.publicUrl}/sessions/token-exchange?init_code=${initCode}&return_to_code=${returnToCode}`,
    );
    expect(pending.status).toBe(422);
    expect(pending.body).toMatchObject({ id: flow.id, type: "api" });

    const wrong = await call(
      `${ts.publicUrl}/sessions/token-exchange?init_code=${initCode}&return_to_code=${initCode}`,
    );
    expect(wrong.status).toBe(404);
    expect(wrong.body).toEqual({
      error: {
        code: 404,
        status: "Not Found",
        reason: 'no session yet for this "code"',
        message: "The requested resource could not be found",
      },
    });

    for (const query of ["", `?init_code=${initCode}`, `?return_to_code=${returnToCode}`]) {
      const missing = await call(`${ts.publicUrl}/sessions/token-exchange${query}`);
      expect(missing.status, query).toBe(400);
      expect(missing.body).toMatchObject({
        error: { reason: '"init_code" and "return_to_code" query params must be set' },
      });
    }
  });

  it("still signs the native client in directly, with the token in the answer", async () => {
    const api = ts.native();
    const flow = await api.createNativeRegistrationFlow({ returnSessionTokenExchangeCode: true });
    const result = await api.updateRegistrationFlow({
      flow: flow.id,
      updateRegistrationFlowBody: {
        method: "password",
        password: "exchange-Secret-2024",
        traits: { email: "exchange-direct@example.com" },
      },
    });
    expect(result.session_token).toMatch(/^ory_st_/);
  });
});
