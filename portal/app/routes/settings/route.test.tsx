import { SettingsFlowFromJSON, UiNodeFromJSON } from "@portal/client";
import type { SettingsFlow } from "@portal/client";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ActionFunction } from "react-router";
import { describe, expect, it } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { vendorJson } from "../../../test/vendor-flows.ts";
import type { Locale } from "../../i18n/locales.ts";
import Settings from "./route.tsx";

const changed = SettingsFlowFromJSON(vendorJson("elements.settings.password.changed.json"));
const withIdentity = vendorJson("kratos.fixture.settings-flow.with-identity.json") as Record<
  string,
  unknown
>;
const profileSnapshot = vendorJson("kratos.snapshot.settings.profile.nodes.json") as {
  nodes: unknown[];
};
/** Kratos' profile + password nodes in the envelope of a persisted settings flow. */
const fresh = SettingsFlowFromJSON({
  ...withIdentity,
  ui: {
    action: "http://localhost:3000/api/kratos/self-service/settings?flow=s1",
    method: "POST",
    nodes: profileSnapshot.nodes,
  },
});

function renderSettings(
  flow: SettingsFlow,
  options: { action?: ActionFunction; locale?: Locale } = {},
) {
  const locale = options.locale ?? "en";
  return renderRoute({
    path: "/:lang/settings",
    url: `/${locale}/settings?flow=s1`,
    Component: Settings,
    loader: () => ({ flow: { ...flow, id: "s1" }, notice: undefined }),
    action: options.action ?? (() => null),
    locale,
  });
}

function recordPosts() {
  const posted: Record<string, string>[] = [];
  const action: ActionFunction = async ({ request }) => {
    posted.push(Object.fromEntries(await request.formData()) as Record<string, string>);
    return null;
  };
  return { posted, action };
}

describe("the settings page", () => {
  it("is titled 'Profile settings', says a change was saved, and shows only cards the flow has", async () => {
    renderSettings(changed);

    expect(
      await screen.findByRole("heading", { level: 1, name: "Profile settings" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Your changes have been saved!");
    expect(screen.getByRole("region", { name: "Profile" })).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Change password" })).toBeInTheDocument();
    // The flow also has oidc nodes: no card renders those (yet). Its webauthn and passkey nodes
    // have their cards (cards/credentials-card.test.tsx).
    expect(screen.queryByRole("button", { name: "Link GitHub" })).toBeNull();
    expect(screen.getByRole("region", { name: "Security keys" })).toBeInTheDocument();
    expect(screen.getByRole("region", { name: "Passkeys" })).toBeInTheDocument();
  });

  it("leaves the profile card out when the flow has no profile nodes", async () => {
    const passwordOnly: SettingsFlow = {
      ...changed,
      ui: { ...changed.ui, nodes: changed.ui.nodes.filter((node) => node.group !== "profile") },
    };
    renderSettings(passwordOnly);

    expect(await screen.findByRole("region", { name: "Change password" })).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Profile" })).toBeNull();
  });

  it("shows the e-mail but does not let it be edited here", async () => {
    renderSettings(changed);

    const email = await screen.findByLabelText("Email");
    expect(email).toBeDisabled();
    expect(email).toHaveValue("dev@ory.dev");
    expect(email).toHaveAccessibleDescription("Your email address cannot be changed here.");
  });

  it("edits the phone number with the country picker, and clears it", async () => {
    const user = userEvent.setup();
    const { posted, action } = recordPosts();
    renderSettings(changed, { action });
    const profile = await screen.findByRole("region", { name: "Profile" });
    expect(await within(profile).findByRole("combobox", { name: "Country" })).toHaveValue("US");

    await user.type(within(profile).getByLabelText("Phone number"), "2025550123");
    await user.click(within(profile).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ method: "profile", "traits.phone": "+12025550123" });
    expect(posted[0]).not.toHaveProperty("password");

    await user.click(within(profile).getByRole("button", { name: "Clear phone number" }));
    expect(within(profile).getByLabelText("Phone number")).toHaveValue("");
    expect(within(profile).getByLabelText("Phone number")).toHaveFocus();
  });

  it("checks the new password like registration, with its rules and its own confirmation", async () => {
    const user = userEvent.setup();
    renderSettings(fresh);
    const card = await screen.findByRole("region", { name: "Change password" });
    const password = within(card).getByLabelText("New password");
    const confirm = within(card).getByLabelText("Confirm new password");
    expect(password).toHaveAttribute("autocomplete", "new-password");
    expect(confirm).toHaveAttribute("autocomplete", "new-password");
    const rules = within(card).getByRole("list", { name: "Your password needs:" });
    expect(within(rules).getAllByText("(not yet)")).toHaveLength(5);

    // Passing through the empty fields says nothing.
    await user.click(password);
    await user.tab();
    expect(password).not.toHaveAttribute("aria-invalid");

    await user.type(password, "Brand-New");
    expect(password).not.toHaveAttribute("aria-invalid");
    expect(within(rules).getAllByText("(not yet)")).toHaveLength(2);
    await user.tab();
    expect(password).toHaveAccessibleDescription(
      /^Password must contain at least 12 characters, 1 uppercase, 1 lowercase, 1 number and 1 special character\./,
    );
    await user.type(password, "-Secret-42");
    expect(password).not.toHaveAttribute("aria-invalid");
    expect(within(rules).queryAllByText("(not yet)")).toHaveLength(0);

    await user.type(confirm, "Brand-New-Secret-43");
    await user.tab();
    expect(confirm).toHaveAccessibleDescription("Passwords must match.");

    await user.click(within(card).getByRole("button", { name: "Show New password" }));
    expect(password).toHaveAttribute("type", "text");
  });

  it("keeps a card's messages while another card is saved, and clears them when it is saved itself", async () => {
    const user = userEvent.setup();
    const { posted, action } = recordPosts();
    renderSettings(fresh, { action });
    const card = await screen.findByRole("region", { name: "Change password" });
    const profile = screen.getByRole("region", { name: "Profile" });
    const confirm = within(card).getByLabelText("Confirm new password");
    await user.type(within(card).getByLabelText("New password"), "Brand-New-Secret-42");
    await user.type(confirm, "Brand-New-Secret-4");
    await user.tab();
    expect(confirm).toHaveAccessibleDescription("Passwords must match.");

    await user.click(within(profile).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    await waitFor(() =>
      expect(within(profile).getByRole("button", { name: "Save" })).toBeEnabled(),
    );
    expect(confirm).toHaveAccessibleDescription("Passwords must match.");

    await user.type(confirm, "2");
    await user.click(within(card).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(posted).toHaveLength(2));
    await waitFor(() => expect(within(card).getByRole("button", { name: "Save" })).toBeEnabled());
    expect(within(card).getByLabelText("Confirm new password")).not.toHaveAttribute("aria-invalid");
    // Saved: the fields start over, and leaving them untouched says nothing.
    await user.click(within(card).getByLabelText("Confirm new password"));
    await user.tab();
    expect(within(card).getByLabelText("Confirm new password")).not.toHaveAttribute("aria-invalid");
  });

  it("posts the password card on its own, and only when both checks pass", async () => {
    const user = userEvent.setup();
    const { posted, action } = recordPosts();
    renderSettings(fresh, { action });
    const card = await screen.findByRole("region", { name: "Change password" });

    await user.click(within(card).getByRole("button", { name: "Save" }));
    expect(within(card).getByLabelText("New password")).toHaveFocus();
    expect(within(card).getByRole("alert")).toHaveTextContent("There is a problem");
    expect(posted).toHaveLength(0);

    await user.type(within(card).getByLabelText("New password"), "Brand-New-Secret-42");
    await user.type(within(card).getByLabelText("Confirm new password"), "Brand-New-Secret-42");
    await user.click(within(card).getByRole("button", { name: "Save" }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(Object.keys(posted[0] ?? {}).sort()).toEqual([
      "confirm_password",
      "csrf_token",
      "method",
      "password",
    ]);
    expect(posted[0]).toMatchObject({ method: "password", password: "Brand-New-Secret-42" });
  });

  it("shows the recovery message (1060001) with the minutes left", async () => {
    const recovered: SettingsFlow = {
      ...fresh,
      ui: {
        ...fresh.ui,
        messages: [
          {
            id: 1060001,
            type: "success",
            text: "You successfully recovered your account. … within the next 60.00 minutes.",
            context: {
              privileged_session_expires_at: "2026-01-01T01:00:00Z",
              minutes_until_privileged_session_expires_at: 59,
            },
          },
        ],
      },
    };
    renderSettings(recovered, { locale: "es" });

    expect(await screen.findByRole("status")).toHaveTextContent(
      "Recuperó su cuenta correctamente. Cambie su contraseña o configure otro método de inicio de sesión en los próximos 59 minutos.",
    );
    expect(
      screen.getByRole("heading", { level: 1, name: "Configuración del perfil" }),
    ).toBeInTheDocument();
  });

  it("shows the server's password reason in plain words on the field", async () => {
    const rejected: SettingsFlow = {
      ...fresh,
      ui: {
        ...fresh.ui,
        nodes: fresh.ui.nodes.map((node) =>
          node.attributes.node_type === "input" && node.attributes.name === "password"
            ? UiNodeFromJSON({
                ...node,
                messages: [
                  {
                    id: 4000032,
                    type: "error",
                    text: "The password must be at least 12 characters long, but got 5.",
                    context: { min_length: 12, actual_length: 5 },
                  },
                ],
              })
            : node,
        ),
      },
    };
    renderSettings(rejected);

    expect(await screen.findByLabelText("New password")).toHaveAccessibleDescription(
      /^Your password is too short: use at least 12 characters \(you entered 5\)\./,
    );
  });

  it("gives each card its own form with its own Save button", async () => {
    renderSettings(changed);

    const profile = await screen.findByRole("region", { name: "Profile" });
    const password = screen.getByRole("region", { name: "Change password" });
    expect(within(profile).getAllByRole("button", { name: "Save" })).toHaveLength(1);
    expect(within(password).getAllByRole("button", { name: "Save" })).toHaveLength(1);
    expect(profile.querySelector("form")).not.toBe(password.querySelector("form"));
  });
});
