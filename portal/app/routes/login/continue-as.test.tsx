import { LoginFlowFromJSON } from "@portal/client";
import type { LoginFlow } from "@portal/client";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { data } from "react-router";
import type { ActionFunction } from "react-router";
import { describe, expect, it } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { vendorJson } from "../../../test/vendor-flows.ts";
import type { Locale } from "../../i18n/locales.ts";
import Login, { shouldRevalidate } from "./route.tsx";

const refreshFlow = LoginFlowFromJSON({
  ...(vendorJson("elements.login.refresh.password.initial.json") as object),
  id: "f1",
  refresh: true,
  oauth2_login_challenge: "ch-1",
});

const offer = {
  subject: "id-jane",
  account: "jane@example.org",
  csrfToken: "csrf-1",
  challenge: "ch-1",
};

function render(
  flow: LoginFlow,
  options: {
    continueAs?: typeof offer;
    account?: string;
    action?: ActionFunction;
    locale?: Locale;
    url?: string;
    rootData?: unknown;
  } = {},
) {
  const locale = options.locale ?? "en";
  return renderRoute({
    path: "/:lang/login",
    url: options.url ?? `/${locale}/login?flow=${flow.id}&login_challenge=ch-1`,
    Component: Login,
    loader: () => ({
      flow,
      notice: undefined,
      invalid: false,
      confirmCreateAccount: false,
      client: "Agency product",
      registration: "",
      continueAs: options.continueAs,
      account: options.account,
    }),
    action: options.action ?? (() => null),
    locale,
    rootData: options.rootData,
  });
}

describe("Continue as", () => {
  it("offers one button for the signed-in account and a way to use another", async () => {
    render(refreshFlow, { continueAs: offer });

    expect(
      await screen.findByRole("heading", { level: 1, name: "Choose an account" }),
    ).toBeInTheDocument();
    expect(screen.getByText("Sign in to continue to Agency product.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Continue as jane@example.org" })).toHaveAttribute(
      "type",
      "submit",
    );
    // No password is asked for.
    expect(screen.queryByLabelText("Password")).toBeNull();
    // A POST of the sign-out form (a GET of /logout only asks first), carrying the challenge.
    const another = screen.getByRole("button", { name: "Use another account" }).closest("form");
    expect(another).toHaveAttribute("action", "/en/logout");
    expect(another).toHaveAttribute("method", "post");
    // Not inside a <p>: the HTML parser would close the paragraph at the form (hydration fails).
    expect(another?.closest("p")).toBeNull();
    expect(Object.fromEntries(new FormData(another!))).toEqual({ login_challenge: "ch-1" });
  });

  it("posts the flow's CSRF token and the identity the button named", async () => {
    const user = userEvent.setup();
    const posted: Record<string, FormDataEntryValue>[] = [];
    const action: ActionFunction = async ({ request }) => {
      posted.push(Object.fromEntries(await request.formData()));
      return { continueAsRefusal: "login.continueAs.sessionChanged" };
    };
    render(refreshFlow, { continueAs: offer, action });

    await user.click(await screen.findByRole("button", { name: "Continue as jane@example.org" }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ csrf_token: "csrf-1", continue_as: "id-jane" });
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText(/signed in with another account/)).toBeInTheDocument();
  });

  it("speaks Spanish", async () => {
    render(refreshFlow, { continueAs: offer, locale: "es" });

    expect(
      await screen.findByRole("button", { name: "Continuar como jane@example.org" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Usar otra cuenta" })).toBeInTheDocument();
  });
});

describe("a stale 'Continue as' page", () => {
  it("after a refusal reads the page again and offers the sign-in form with the message", async () => {
    const user = userEvent.setup();
    // Signed out in another tab: the loader no longer offers to continue (login.server).
    let signedIn = true;
    renderRoute({
      path: "/:lang/login",
      url: "/en/login?flow=f1&login_challenge=ch-1",
      Component: Login,
      loader: () => ({
        flow: signedIn ? refreshFlow : { ...refreshFlow, refresh: false },
        notice: undefined,
        invalid: false,
        confirmCreateAccount: false,
        client: "Agency product",
        registration: "",
        continueAs: signedIn ? offer : undefined,
        account: undefined,
      }),
      action: () => {
        signedIn = false;
        return data({ continueAsRefusal: "login.continueAs.sessionEnded" }, { status: 401 });
      },
      shouldRevalidate,
    });

    await user.click(await screen.findByRole("button", { name: "Continue as jane@example.org" }));

    expect(await screen.findByLabelText("Password")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("Your session has ended.");
    expect(screen.queryByRole("button", { name: /Continue as/ })).toBeNull();
  });
});

describe("naming the account", () => {
  it("asks the account itself to confirm on a refresh", async () => {
    render(refreshFlow, { account: "jane@example.org" });

    expect(
      await screen.findByRole("heading", { level: 1, name: "Confirm action" }),
    ).toBeInTheDocument();
    // The refresh flow's hidden identifier names the account (dev@ory.dev in Kratos' JSON).
    expect(screen.getByText(/Confirm it's you, .+@.+\./)).toBeInTheDocument();
  });

  it("says who is signing in on the second factor, from the flow or the loader", async () => {
    const json = vendorJson("elements.login.aal2.all-methods.initial.json") as object;
    const named = LoginFlowFromJSON({ ...json, id: "f2" });
    const { unmount } = render(named, { url: "/en/login?flow=f2&aal=aal2" });
    expect(await screen.findByText("Signed in as dev@ory.dev")).toBeInTheDocument();
    unmount();

    const unnamed = LoginFlowFromJSON({
      ...json,
      id: "f3",
      ui: {
        ...(json as { ui: object }).ui,
        nodes: (json as { ui: { nodes: { attributes: { name?: string } }[] } }).ui.nodes.filter(
          (node) => node.attributes.name !== "identifier",
        ),
      },
    });
    render(unnamed, { account: "jane@example.org", url: "/en/login?flow=f3&aal=aal2" });
    expect(await screen.findByText("Signed in as jane@example.org")).toBeInTheDocument();
  });
});

describe("a lost second-factor device", () => {
  const json = vendorJson("elements.login.aal2.all-methods.initial.json") as {
    ui: { nodes: { group: string }[] };
  };
  const only = (groups: string[]) =>
    LoginFlowFromJSON({
      ...json,
      id: "f4",
      ui: { ...json.ui, nodes: json.ui.nodes.filter((node) => groups.includes(node.group)) },
    });

  it("is offered a backup code when the account has them", async () => {
    render(only(["default", "totp", "lookup_secret"]), { url: "/en/login?flow=f4&aal=aal2" });

    const link = await screen.findByRole("link", { name: "Lost your device? Use a backup code" });
    expect(link.getAttribute("href")).toContain("method=lookup_secret");
  });

  it("is offered a code by e-mail or text message when the flow offers one", async () => {
    render(only(["default", "totp", "code"]), { url: "/en/login?flow=f4&aal=aal2" });

    const link = await screen.findByRole("link", {
      name: "Lost your device? Get a code by email or text message",
    });
    expect(link.getAttribute("href")).toContain("method=code");
  });

  it("is sent to support with only an authenticator app, and from the backup-code form", async () => {
    // Account recovery signs in at the first factor only: the second factor is asked again.
    const rootData = { links: { supportUrl: "mailto:support@example.gov" } };
    const { unmount } = render(only(["default", "totp"]), {
      url: "/en/login?flow=f4&aal=aal2",
      rootData,
    });
    expect(
      await screen.findByRole("link", {
        name: "Lost your device and have no backup codes? Contact support",
      }),
    ).toHaveAttribute("href", "mailto:support@example.gov");
    expect(
      screen.getByText(/An administrator can remove the authenticator app from your account/),
    ).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Recover your account/ })).toBeNull();
    expect(screen.queryByRole("link", { name: /Recover your account/ })).toBeNull();
    unmount();

    render(only(["default", "totp", "lookup_secret"]), {
      url: "/en/login?flow=f4&aal=aal2&method=lookup_secret",
      rootData,
    });
    expect(
      await screen.findByRole("link", {
        name: "Lost your device and have no backup codes? Contact support",
      }),
    ).toBeInTheDocument();
  });
});
