import { SettingsFlowFromJSON } from "@portal/client";
import type { SettingsFlow, UiNode } from "@portal/client";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ActionFunction } from "react-router";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderRoute } from "../../../../test/route-stub.tsx";
import { vendorJson } from "../../../../test/vendor-flows.ts";
import { attestation, stubWebAuthn } from "../../../../test/webauthn-browser.ts";
import { passkeySettingsNodes, webauthnSettingsNodes } from "../../../../test/webauthn-nodes.ts";
import type { Locale } from "../../../i18n/locales.ts";
import Settings from "../route.tsx";

const recorded = SettingsFlowFromJSON(vendorJson("elements.settings.all-methods.initial.json"));

/** The recorded settings flow, its passkey and security-key nodes replaced by `nodes`. */
function flowWith(nodes: UiNode[]): SettingsFlow {
  const others = recorded.ui.nodes.filter(
    (node) => node.group !== "passkey" && node.group !== "webauthn",
  );
  const own = nodes.filter((node) => node.group !== "default");
  return { ...recorded, id: "s1", ui: { ...recorded.ui, nodes: [...others, ...own] } };
}

function renderSettings(
  flow: SettingsFlow,
  options: { action?: ActionFunction; locale?: Locale } = {},
) {
  const locale = options.locale ?? "en";
  return renderRoute({
    path: "/:lang/settings",
    url: `/${locale}/settings?flow=s1`,
    Component: Settings,
    loader: () => ({ flow, notice: undefined, sessions: undefined, fingerprint: undefined }),
    action: options.action ?? (() => null),
    locale,
  });
}

function recordPosts() {
  const posted: Record<string, string>[] = [];
  const action: ActionFunction = async ({ request }) => {
    const fields: Record<string, string> = {};
    for (const [name, value] of await request.formData()) {
      if (typeof value === "string") fields[name] = value;
    }
    posted.push(fields);
    return null;
  };
  return { posted, action };
}

const csrf = "AAAAAAA/AAAAAA/2+AAAAAAAA==";

let browser: ReturnType<typeof stubWebAuthn>;
beforeEach(() => {
  browser = stubWebAuthn();
});
afterEach(() => browser.restore());

describe("the passkeys and security keys cards", () => {
  it("show for the recorded flow, after the password, none listed yet", async () => {
    renderSettings({ ...recorded, id: "s1" });

    const passkeys = await screen.findByRole("region", { name: "Passkeys" });
    expect(within(passkeys).getByText("You have no passkeys yet.")).toBeVisible();
    expect(within(passkeys).getByRole("button", { name: "Add passkey" })).toBeEnabled();
    const keys = screen.getByRole("region", { name: "Security keys" });
    expect(within(keys).getByText("You have no security keys yet.")).toBeVisible();
    expect(within(keys).getByLabelText("Name of the security key")).toHaveAttribute("type", "text");
    expect(within(keys).getByRole("button", { name: "Add security key" })).toBeEnabled();
    // In the page's order: sign-in methods, then the second factors, the security key first.
    const regions = screen.getAllByRole("region").map((region) => region.getAttribute("id"));
    expect(regions.slice(0, 4)).toEqual([
      "settings-profile",
      "settings-password",
      "settings-passkeys",
      "settings-security-keys",
    ]);
    const nav = screen.getByRole("navigation", { name: /settings/i });
    expect(within(nav).getByRole("link", { name: "Security keys" })).toHaveAttribute(
      "href",
      "#settings-security-keys",
    );
  });

  it("list each passkey with its name and the day it was added", async () => {
    renderSettings(flowWith(passkeySettingsNodes()));

    const card = await screen.findByRole("region", { name: "Passkeys" });
    const list = within(card).getByRole("list", { name: "Your passkeys" });
    const items = within(list).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining("LaptopAdded on March 4, 2025"),
      expect.stringContaining("PhoneAdded on June 1, 2025"),
    ]);
    expect(
      within(items[0] as HTMLElement).getByRole("button", { name: 'Remove passkey "Laptop"' }),
    ).toHaveAttribute("value", "6b6579");
  });

  it("list them in Spanish too", async () => {
    renderSettings(flowWith(webauthnSettingsNodes()), { locale: "es" });

    const card = await screen.findByRole("region", { name: "Llaves de seguridad" });
    const list = within(card).getByRole("list", { name: "Sus llaves de seguridad" });
    expect(within(list).getByText("Añadida el 15 de enero de 2025")).toBeVisible();
    expect(
      within(list).getByRole("button", { name: "Quitar la llave de seguridad «Blue key»" }),
    ).toBeInTheDocument();
  });

  it("ask before removing a passkey, then post Kratos' passkey_remove with the confirmation", async () => {
    const user = userEvent.setup();
    const { posted, action } = recordPosts();
    renderSettings(flowWith(passkeySettingsNodes()), { action });

    const card = await screen.findByRole("region", { name: "Passkeys" });
    await user.click(within(card).getByRole("button", { name: 'Remove passkey "Phone"' }));

    const asking = await within(card).findByRole("group", { name: "Are you sure?" });
    expect(asking).toHaveAccessibleDescription(
      'You will no longer be able to sign in with the passkey "Phone".',
    );
    expect(posted).toHaveLength(0);
    await user.click(within(asking).getByRole("button", { name: 'Remove passkey "Phone"' }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      csrf_token: csrf,
      passkey_remove: "70686f6e65",
      confirm_action: "passkey_remove",
    });
  });

  it("add a named security key: the browser's answer posted with method=webauthn", async () => {
    const user = userEvent.setup();
    browser.create.mockResolvedValue(attestation());
    const { posted, action } = recordPosts();
    renderSettings(flowWith(webauthnSettingsNodes()), { action });

    const card = await screen.findByRole("region", { name: "Security keys" });
    await user.type(within(card).getByLabelText("Name of the security key"), "Backup key");
    await user.click(within(card).getByRole("button", { name: "Add security key" }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({
      csrf_token: csrf,
      method: "webauthn",
      webauthn_register_displayname: "Backup key",
    });
    expect(JSON.parse(posted[0]?.webauthn_register ?? "")).toMatchObject({ id: "bmV3" });
    // Only the add form's fields: no credential is removed on the way.
    expect(posted[0]?.webauthn_remove).toBeUndefined();
  });
});
