import { readFileSync } from "node:fs";
import type { UiNode } from "@ory/client-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerNative } from "../../test-support/flow-helpers.ts";
import { linkTotp, passwordSignIn, verifyEmail } from "../../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../../test-support/test-server.ts";

// What a UI that does not know our additions shows: Ory Elements and kratos-selfservice-ui-node
// print `meta.label.text` and text nodes' `text` for ids they have no translation of, and title
// a settings group from their own catalogue (`settings.<group>.title`).

const translations = JSON.parse(
  readFileSync(new URL("../../../ory-elements/custom-translations.json", import.meta.url), "utf8"),
) as Record<string, Record<string, string>>;

// The settings groups Ory Elements titles itself (elements-react settingsCardMessages.ts).
const groupsElementsTitles = new Set([
  "default",
  "totp",
  "lookup_secret",
  "oidc",
  "passkey",
  "profile",
  "password",
  "webauthn",
  "deviceauthn",
]);

let ts: TestServer;
let nodes: UiNode[];

beforeAll(async () => {
  ts = await startTestServer();
  const email = "elements@example.gov";
  await registerNative(ts, email);
  await verifyEmail(ts, email);
  const { browser } = await passwordSignIn(ts, email);
  await linkTotp(ts, browser);
  const flow = await browser.api.createBrowserSettingsFlow();
  nodes = flow.ui.nodes;
}, 60_000);

afterAll(async () => {
  await ts.stop();
});

/** Our nodes: the code group and the trusted-devices list with its buttons. */
function ourNodes(): UiNode[] {
  return nodes.filter((node) => {
    const attributes = node.attributes as { id?: string; name?: string };
    return (
      node.group === "code" ||
      attributes.id === "totp-trusted-devices" ||
      attributes.name === "totp_device_untrust"
    );
  });
}

describe("a UI that does not know our additions", () => {
  it("reads every node of the code group and the trusted devices in words", () => {
    const ours = ourNodes();
    expect(ours.map((node) => node.group)).toContain("code");
    for (const node of ours) {
      const label = node.meta.label;
      const text = (node.attributes as { text?: { text: string } }).text?.text;
      for (const words of [label?.text, text].filter((w) => w !== undefined)) {
        // Words, not an id, a translation key, a placeholder or JSON.
        expect(words).toMatch(/ /);
        expect(words).not.toMatch(/[{}]|^[\w.]+$/);
      }
      expect(label?.text).toBeTruthy();
    }
    expect(ours.find((node) => node.group === "code")?.meta.label?.text).toBe(
      "Use codes sent to elements@example.gov as a second factor",
    );
  });

  it("has Ory Elements translations for every settings group Elements cannot title", () => {
    const untitled = [...new Set(nodes.map((node) => node.group as string))].filter(
      (group) => !groupsElementsTitles.has(group),
    );
    expect(untitled).toEqual(["code"]);
    for (const locale of ["en", "es"]) {
      for (const group of untitled) {
        expect(translations[locale]?.[`settings.${group}.title`], locale).toBeTruthy();
        expect(translations[locale]?.[`settings.${group}.description`], locale).toBeTruthy();
      }
    }
  });
});
