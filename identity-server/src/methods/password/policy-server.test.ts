import type { RegistrationFlow, SettingsFlow } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  csrfTokenOf,
  failureOf,
  messageIds,
  registerNative,
} from "../../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

// Issue 12 §4: the identity server itself refuses weak passwords, whatever the portal's browser
// code does: through the API (registration) and in settings.

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ IDENTITY_PASSWORD_CONTEXT_WORDS: "agency,portal,product,signin" });
});
afterAll(async () => {
  await ts.stop();
});

/** Each weak password for the e-mail, with the Kratos message id it must be refused with. */
function weakPasswords(email: string): [string, number][] {
  const local = email.slice(0, email.indexOf("@"));
  return [
    ["aaaaaaaaaaaa", 4000034],
    [" ".repeat(12), 4000034],
    ["abcdefghijkl", 4000034],
    [`${local}12345678`, 4000031],
    ["Portal-2024!!x", 4000034],
    ["Password2024!", 4000034],
    // The independent attack on issue 12 registered with each of these.
    ["pass\u200bword1234", 4000034],
    ["ｐａｓｓｗｏｒｄ１２３４", 4000034],
    ["éèêëàâ", 4000032],
    [[...email].reverse().join(""), 4000031],
    ["1q2w3e4r5t6y7u8i", 4000034],
    ["sign-in-portal", 4000034],
    ["agencyproduct1", 4000034],
    // The UI's host name (IDENTITY_UI_BASE_URL, http://localhost:3000 by default).
    ["localhost1234", 4000034],
  ];
}

async function registrationMessages(email: string, password: string): Promise<number[]> {
  const api = ts.native();
  const flow = await api.createNativeRegistrationFlow();
  const failure = await failureOf(
    api.updateRegistrationFlow({
      flow: flow.id,
      updateRegistrationFlowBody: { method: "password", password, traits: { email } },
    }),
  );
  expect(failure.status).toBe(400);
  return messageIds(failure.body as RegistrationFlow, "password");
}

describe("server-side password rules (NIST SP 800-63B)", () => {
  it("refuses repetitive, sequential, context-word and dictionary-based passwords at registration through the API", async () => {
    const email = "jane.doe@example.org";
    for (const [password, id] of weakPasswords(email)) {
      expect(await registrationMessages(email, password), JSON.stringify(password)).toEqual([id]);
    }
    // Nothing was created on the way.
    const identities = await ts.admin().listIdentities({ credentialsIdentifier: email });
    expect(identities).toEqual([]);
  });

  it("refuses the same passwords in settings", async () => {
    const email = "sam.smith@example.org";
    await registerNative(ts, email);
    const browser = ts.browser();
    const login = await browser.api.createBrowserLoginFlow();
    await browser.api.updateLoginFlow({
      flow: login.id,
      updateLoginFlowBody: {
        method: "password",
        identifier: email,
        password: "correct-Horse-battery-2-staple",
        csrf_token: csrfTokenOf(login),
      },
    });
    let flow = await browser.api.createBrowserSettingsFlow();
    for (const [password, id] of weakPasswords(email)) {
      const failure = await failureOf(
        browser.api.updateSettingsFlow({
          flow: flow.id,
          updateSettingsFlowBody: { method: "password", password, csrf_token: csrfTokenOf(flow) },
        }),
      );
      expect(failure.status).toBe(400);
      flow = failure.body as SettingsFlow;
      expect(messageIds(flow, "password"), JSON.stringify(password)).toEqual([id]);
    }
    // A strong one still goes through.
    const saved = await browser.api.updateSettingsFlow({
      flow: flow.id,
      updateSettingsFlowBody: {
        method: "password",
        password: "Sam-walks-7-quiet-dogs",
        csrf_token: csrfTokenOf(flow),
      },
    });
    expect(saved.state).toBe("success");
  });
});
