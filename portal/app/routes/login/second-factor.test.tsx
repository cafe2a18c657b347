import { LoginFlowFromJSON } from "@portal/client";
import type { LoginFlow } from "@portal/client";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ActionFunction } from "react-router";
import { describe, expect, it } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { vendorJson } from "../../../test/vendor-flows.ts";
import type { Locale } from "../../i18n/locales.ts";
import Login, { shouldRevalidate } from "./route.tsx";

/** The identity service's checkbox, as it adds it after the CSRF token (group default). */
const trustDevice = {
  type: "input",
  group: "default",
  attributes: {
    name: "trust_device",
    type: "checkbox",
    value: "true",
    required: false,
    disabled: false,
    node_type: "input",
  },
  messages: [],
  meta: {
    label: {
      id: 9010001,
      text: "Trust this device for 30 days",
      type: "info",
      context: { days: 30 },
    },
  },
};

/** A real aal2 flow JSON with the trust-device node where the identity service puts it. */
function aal2Flow(file: string, drop: readonly string[] = []): LoginFlow {
  const json = vendorJson(file) as { ui: { nodes: { group: string }[] } };
  const [csrf, ...rest] = json.ui.nodes.filter((node) => !drop.includes(node.group));
  const nodes = csrf ? [csrf, trustDevice, ...rest] : rest;
  return LoginFlowFromJSON({ ...json, id: "f2", ui: { ...json.ui, nodes } });
}

const allMethods = aal2Flow("elements.login.aal2.all-methods.initial.json");

function renderSecondFactor(
  flow: LoginFlow,
  options: { url?: string; action?: ActionFunction; locale?: Locale } = {},
) {
  const locale = options.locale ?? "en";
  return renderRoute({
    path: "/:lang/login",
    url: options.url ?? `/${locale}/login?flow=f2&aal=aal2`,
    Component: Login,
    loader: () => ({ flow, notice: undefined, invalid: false, confirmCreateAccount: false }),
    action: options.action ?? (() => null),
    locale,
  });
}

describe("the second-factor sign-in", () => {
  it("is titled 'Two-factor authentication' and opens on the authenticator app", async () => {
    renderSecondFactor(allMethods);

    expect(
      await screen.findByRole("heading", { level: 1, name: "Two-factor authentication" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 2, name: "Authenticator app" })).toBeVisible();
    expect(screen.getByLabelText("Authentication code")).toHaveAttribute("name", "totp_code");
    expect(screen.getByRole("button", { name: "Use your authenticator app" })).toHaveAttribute(
      "value",
      "totp",
    );
    expect(
      screen.getByRole("checkbox", { name: "Trust this device for 30 days" }),
    ).not.toBeChecked();
    // Only this method's form: the other methods wait behind "Try another way".
    expect(screen.queryByLabelText("Backup recovery code")).toBeNull();
    expect(screen.queryByRole("button", { name: "Send code to dev@ory.dev" })).toBeNull();
    expect(screen.queryByRole("checkbox", { name: "Remember me" })).toBeNull();
    // A POST of the sign-out form: a GET of /logout only asks first.
    const differentAccount = screen.getByRole("button", { name: "Use a different account" });
    expect(differentAccount.closest("form")).toHaveAttribute("action", "/en/logout");
    expect(differentAccount.closest("form")).toHaveAttribute("method", "post");
  });

  it("offers every method in the spec's order as links that work without scripts", async () => {
    renderSecondFactor(allMethods, { url: "/en/login?flow=f2&aal=aal2&method=choose" });

    const list = await screen.findByRole("list");
    const choices = within(list).getAllByRole("link");
    expect(choices.map((link) => link.textContent)).toEqual([
      "Security key or passkey",
      "Authenticator app",
      "Code by email or text message",
      "Backup code",
    ]);
    expect(choices[3]).toHaveAttribute("href", "/en/login?flow=f2&aal=aal2&method=lookup_secret");
    expect(choices[3]).toHaveAccessibleDescription(/Enter one of your backup codes/);
    // Back leads to the default method, the authenticator app.
    expect(screen.getByRole("link", { name: "Back" })).toHaveAttribute(
      "href",
      "/en/login?flow=f2&aal=aal2&method=totp",
    );
  });

  it("switches to the chooser and to another method in place, moving focus to each", async () => {
    const user = userEvent.setup();
    renderSecondFactor(allMethods);

    await user.click(await screen.findByRole("link", { name: "Try another way" }));
    const chooser = await screen.findByRole("heading", {
      level: 2,
      name: "Choose how to verify it's you",
    });
    expect(chooser).toHaveFocus();

    await user.click(screen.getByRole("link", { name: "Backup code" }));
    const heading = await screen.findByRole("heading", { level: 2, name: "Backup code" });
    expect(heading).toHaveFocus();
    expect(screen.getByLabelText("Backup recovery code")).toHaveAttribute("name", "lookup_secret");
    expect(screen.getByRole("button", { name: "Use backup recovery code" })).toBeInTheDocument();

    // "Try another way" and then "Back" return to the method the user came from.
    await user.click(screen.getByRole("link", { name: "Try another way" }));
    await user.click(await screen.findByRole("link", { name: "Back" }));
    expect(await screen.findByLabelText("Backup recovery code")).toBeInTheDocument();
  });

  it("offers the code addresses as buttons once codes are chosen", async () => {
    renderSecondFactor(allMethods, { url: "/en/login?flow=f2&aal=aal2&method=code" });

    const send = await screen.findByRole("button", { name: "Send code to dev@ory.dev" });
    expect(send).toHaveAttribute("name", "address");
    expect(send).toHaveAttribute("value", "dev@ory.dev");
    // Nothing is trusted by asking for a code, so the box waits for the code entry.
    expect(screen.queryByRole("checkbox", { name: /Trust this device/ })).toBeNull();
  });

  it("starts at the chooser, without Back, when there is no authenticator app", async () => {
    renderSecondFactor(aal2Flow("elements.login.aal2.all-methods.initial.json", ["totp"]));

    expect(
      await screen.findByRole("heading", { level: 2, name: "Choose how to verify it's you" }),
    ).toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Back" })).toBeNull();
    expect(screen.queryByLabelText("Authentication code")).toBeNull();
  });

  it("shows a single method without a chooser", async () => {
    renderSecondFactor(aal2Flow("elements.login.aal2.lookup-secret.invalid.json"));

    // The wrong code is said on its field (marked invalid, described by it), not in an alert.
    const field = await screen.findByLabelText("Backup recovery code");
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveAccessibleDescription("The backup recovery code is not valid.");
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByRole("link", { name: "Try another way" })).toBeNull();
  });

  it("hides the chooser once a code was sent: only the code entry and resend", async () => {
    renderSecondFactor(aal2Flow("elements.login.aal2.code.sent.json"), {
      url: "/en/login?flow=f2&aal=aal2&method=code",
    });

    expect(await screen.findByRole("status")).toHaveTextContent("A code was sent to your address.");
    expect(screen.getByLabelText("Sign-in code")).toHaveAttribute("name", "code");
    expect(screen.getByRole("button", { name: "Continue" })).toHaveAttribute("value", "code");
    expect(screen.getByRole("button", { name: "Resend code" })).toHaveAttribute("name", "resend");
    expect(screen.getByRole("checkbox", { name: "Trust this device for 30 days" })).toBeVisible();
    expect(screen.queryByRole("link", { name: "Try another way" })).toBeNull();
    expect(screen.queryByRole("link", { name: "Backup code" })).toBeNull();
  });

  it("submits trust_device with the code when the box is ticked", async () => {
    const user = userEvent.setup();
    const posted: Record<string, string>[] = [];
    const action: ActionFunction = async ({ request }) => {
      posted.push(Object.fromEntries(await request.formData()) as Record<string, string>);
      return null;
    };
    renderSecondFactor(allMethods, { action });

    await user.type(await screen.findByLabelText("Authentication code"), "123456");
    await user.click(screen.getByRole("checkbox", { name: "Trust this device for 30 days" }));
    await user.click(screen.getByRole("button", { name: "Use your authenticator app" }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({
      csrf_token: "AAAAAAA/AAAAAA/2+AAAAAAAA==",
      trust_device: "true",
      totp_code: "123456",
      method: "totp",
    });
  });

  it("says 'Confirm action' for a refresh of the second factor and offers to cancel", async () => {
    renderSecondFactor({ ...allMethods, refresh: true, return_to: "http://localhost:4000/" });

    expect(
      await screen.findByRole("heading", { level: 1, name: "Confirm action" }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Authentication code")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Cancel" })).toHaveAttribute(
      "href",
      "http://localhost:4000/",
    );
  });

  it("speaks Spanish", async () => {
    renderSecondFactor(allMethods, { locale: "es" });

    expect(
      await screen.findByRole("heading", { level: 1, name: "Autenticación en dos pasos" }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole("checkbox", { name: "Confiar en este dispositivo durante 30 días" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Probar de otra forma" })).toBeInTheDocument();
  });
});

describe("choosing a method", () => {
  const args = (current: string, next: string, formMethod?: "GET" | "POST") => ({
    currentUrl: new URL(current, "http://localhost"),
    nextUrl: new URL(next, "http://localhost"),
    currentParams: { lang: "en" },
    nextParams: { lang: "en" },
    formMethod,
    defaultShouldRevalidate: true,
  });

  it("does not ask the identity service for the flow again", () => {
    expect(
      shouldRevalidate(
        args("/en/login?flow=f2&aal=aal2", "/en/login?flow=f2&aal=aal2&method=choose&from=totp"),
      ),
    ).toBe(false);
    expect(
      shouldRevalidate(args("/en/login?flow=f2&method=choose", "/en/login?flow=f2&method=code")),
    ).toBe(false);
  });

  it("still reloads for another flow or after a submission", () => {
    expect(shouldRevalidate(args("/en/login?flow=f2", "/en/login?flow=f3&method=code"))).toBe(true);
    expect(shouldRevalidate(args("/en/login?flow=f2", "/en/login?flow=f2", "POST"))).toBe(true);
  });
});
