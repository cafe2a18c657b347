import { readFileSync } from "node:fs";
import type { UiNode, UiText } from "@ory/client-fetch";
import { IntlMessageFormat } from "intl-messageformat";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfTokenOf, registerNative } from "../test-support/flow-helpers.ts";
import {
  completeTotp,
  linkTotp,
  passwordSignIn,
  submitLogin,
  verifyEmail,
} from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { call } from "../test-support/http-client.ts";
import { uiText } from "./messages.ts";
import { ownMessages } from "./own-messages.ts";

// UIs format message texts with an ICU MessageFormat formatter (react-intl in Ory Elements):
// a Kratos id from their own catalogue, filled with the message's context, and an id they do not
// know from its text, as the default message. Both must format without an error, and a text
// must format to itself (nothing in it read as a placeholder, tag or quote).

interface CatalogueEntry {
  id: number;
  text: string | null;
}

const kratos = JSON.parse(
  readFileSync(new URL("../../../vendor/ory/kratos-messages.json", import.meta.url), "utf8"),
) as CatalogueEntry[];
const templates = new Map<number, string>(
  [...kratos, ...ownMessages].flatMap((entry) =>
    entry.text === null ? [] : [[entry.id, entry.text] as const],
  ),
);

function placeholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? "");
}

/** Context values as Ory Elements passes them: strings and numbers (arrays and objects as is). */
function formatValues(context: object | undefined): Record<string, never> {
  return (context ?? {}) as Record<string, never>;
}

/** Formats `source` with the values; the formatter's error, or the output. */
function format(source: string, context: object | undefined): string {
  return String(new IntlMessageFormat(source, "en").format(formatValues(context)));
}

/** Both ways a UI formats the message; fails with the formatter's error. */
function expectFormatsCleanly(message: UiText): void {
  expect(format(message.text, message.context), `text of ${message.id}`).toBe(message.text);
  const template = templates.get(message.id);
  expect(template, `${message.id} is in a catalogue`).toBeDefined();
  const context = (message.context ?? {}) as Record<string, unknown>;
  const missing = placeholders(template ?? "").filter((key) => !(key in context));
  expect(missing, `context of ${message.id} fills its template`).toEqual([]);
  // Our texts go to formatters as they are; Kratos' templates are Elements' starting point.
  expect(() => format(template ?? "", message.context), `template of ${message.id}`).not.toThrow();
}

describe("every catalogue message, built as the server builds it", () => {
  const realistic: Record<string, string | number> = {
    address: "jane.doe+work@example.gov",
    reason: "The password can not be used because it is too short.",
    device: "Firefox on Linux (203.0.113.7), trusted on 2026-07-01 until 2026-07-31",
    devices: "Firefox on Linux (203.0.113.7), trusted on 2026-07-01 until 2026-07-31",
    wait: "3 minutes",
    days: 30,
  };
  for (const [id, template] of templates) {
    it(`${id} formats cleanly`, () => {
      const values = Object.fromEntries(
        placeholders(template).map((key) => [key, realistic[key] ?? `a ${key}`]),
      );
      expectFormatsCleanly(uiText(id, values));
    });
  }

  it("keeps values with ICU syntax literal in our own messages", () => {
    const address = "o'brien{x}<b>@example.gov";
    for (const id of [9010002, 9010003]) {
      const message = uiText(id, { address });
      expect(format(message.text, message.context)).toBe(
        (templates.get(id) ?? "").replace("{address}", address),
      );
    }
    const device = "Evil <b>{x}</b> isn't '{'";
    const message = uiText(9010006, { device });
    expect(format(message.text, message.context)).toBe(`Stop trusting ${device}`);
    // Without such characters the text is unchanged, for UIs that print it as sent.
    expect(uiText(9010006, { device: "Firefox on Linux" }).text).toBe(
      "Stop trusting Firefox on Linux",
    );
  });
});

/** Every UI text of a flow, with the texts inside contexts (backup codes). */
function textsOf(flow: { ui: { messages?: UiText[]; nodes: UiNode[] } }): UiText[] {
  const texts: UiText[] = [...(flow.ui.messages ?? [])];
  for (const node of flow.ui.nodes) {
    texts.push(...node.messages);
    if (node.meta.label) texts.push(node.meta.label);
    const text = (node.attributes as { text?: UiText }).text;
    if (text) texts.push(text);
  }
  return texts;
}

describe("the texts a running server sends, with their contexts", () => {
  let ts: TestServer;
  const sent: UiText[] = [];

  beforeAll(async () => {
    ts = await startTestServer({ IDENTITY_RATE_LIMIT_PASSWORD_PER_IDENTIFIER: "1" });
    const email = "formats@example.gov";
    await registerNative(ts, email);
    await verifyEmail(ts, email);
    const { browser } = await passwordSignIn(ts, email);
    const secret = await linkTotp(ts, browser);
    // A second browser: its second-factor form (with the trust_device checkbox), then trusted,
    // so the settings list names a device. The next step's code, as linking used this one.
    const { browser: second } = await passwordSignIn(ts, email);
    sent.push(...textsOf(await second.api.createBrowserLoginFlow({ aal: "aal2" })));
    const next = new Date(ts.now().getTime() + 30_000);
    await completeTotp(ts, second, secret, { trust_device: true }, next);
    sent.push(...textsOf(await second.api.createBrowserSettingsFlow()));

    // A wrong password, then the limit (9010007).
    const stranger = ts.browser();
    const login = await stranger.api.createBrowserLoginFlow();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const answer = await submitLogin(ts, stranger, login, {
        method: "password",
        identifier: email,
        password: "Not-the-password-42",
      });
      sent.push(...textsOf(answer.body as { ui: { nodes: UiNode[] } }));
    }

    // A refused registration (password policy, with its context).
    const registration = await stranger.api.createBrowserRegistrationFlow();
    const refused = await call(
      `${ts.publicUrl}/self-service/registration?flow=${registration.id}`,
      {
        method: "POST",
        jar: stranger.jar,
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          method: "password",
          password: "short",
          traits: { email: "new@example.gov" },
          csrf_token: csrfTokenOf(registration),
        }),
      },
    );
    sent.push(...textsOf(refused.body as { ui: { nodes: UiNode[] } }));

    // Recovery and verification, before and after a code was sent.
    const recovery = await stranger.api.createBrowserRecoveryFlow();
    sent.push(...textsOf(recovery));
    sent.push(
      ...textsOf(
        await stranger.api.updateRecoveryFlow({
          flow: recovery.id,
          updateRecoveryFlowBody: { method: "code", email, csrf_token: csrfTokenOf(recovery) },
        }),
      ),
    );
  }, 60_000);

  afterAll(async () => {
    await ts.stop();
  });

  it("walked the extension nodes, the limit and Kratos' own messages", () => {
    const ids = new Set(sent.map((message) => message.id));
    for (const id of [9010001, 9010004, 9010005, 9010006, 9010007, 4000032, 1060003]) {
      expect(ids, String(id)).toContain(id);
    }
  });

  it("formats every one of them cleanly", () => {
    for (const message of sent) expectFormatsCleanly(message);
  });

  it("words the trusted devices as a sentence; the list is only in data", () => {
    const list = sent.find((message) => message.id === 9010004);
    expect(list?.text).toMatch(/^Trusted devices skip the second factor until they expire: .+\.$/);
    expect(list?.text).not.toMatch(/[{}[\]"]/);
    const context = (list?.context ?? {}) as Record<string, unknown>;
    expect(JSON.parse(String(context.data))).toEqual(expect.any(Object));
  });
});
