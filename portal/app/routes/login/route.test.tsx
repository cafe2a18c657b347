import { LoginFlowFromJSON } from "@portal/client";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { vendorJson } from "../../../test/vendor-flows.ts";
import Login from "./route.tsx";

const initial = LoginFlowFromJSON(vendorJson("elements.login.1fa.password.initial.json"));

function renderLogin(
  data: Partial<{
    invalid: boolean;
    confirmCreateAccount: boolean;
    refresh: boolean;
    client: string;
    registration: string;
    challenge: string;
  }> = {},
  url = "/en/login?flow=f1",
) {
  const flow = {
    ...initial,
    id: "f1",
    refresh: data.refresh ?? false,
    oauth2_login_challenge: data.challenge,
  };
  return renderRoute({
    path: "/:lang/login",
    url,
    Component: Login,
    loader: () => ({
      flow,
      notice: undefined,
      invalid: data.invalid ?? false,
      confirmCreateAccount: data.confirmCreateAccount ?? false,
      client: data.client,
      registration: data.registration ?? "",
    }),
    action: () => null,
  });
}

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});
afterEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});

describe("the login page", () => {
  it("is titled 'Sign in' and offers the form, remember-me and the other ways forward", async () => {
    renderLogin();

    expect(await screen.findByRole("heading", { level: 1, name: "Sign in" })).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toBeInTheDocument();
    expect(screen.getByRole("checkbox", { name: "Remember me" })).not.toBeChecked();
    expect(screen.getByRole("link", { name: "Forgot password?" })).toHaveAttribute(
      "href",
      "/en/recovery",
    );
    expect(screen.getByRole("link", { name: "Create account" })).toHaveAttribute(
      "href",
      "/en/login?flow=f1&confirm=create-account",
    );
  });

  it("says 'Confirm action' for a refresh flow and drops remember-me", async () => {
    renderLogin({ refresh: true });

    expect(
      await screen.findByRole("heading", { level: 1, name: "Confirm action" }),
    ).toBeInTheDocument();
    expect(screen.queryByRole("checkbox", { name: "Remember me" })).toBeNull();
    // A POST of the sign-out form: a GET of /logout only asks first.
    const differentAccount = screen.getByRole("button", { name: "Use a different account" });
    expect(differentAccount.closest("form")).toHaveAttribute("action", "/en/logout");
    expect(differentAccount.closest("form")).toHaveAttribute("method", "post");
    // Not inside a <p>: the HTML parser would close the paragraph at the form (hydration fails).
    expect(differentAccount.closest("p")).toBeNull();
  });

  it("shows an error alert when ?invalid is set", async () => {
    renderLogin({ invalid: true });

    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Sign-in failed")).toBeInTheDocument();
    expect(within(alert).getByText(/could not be completed/)).toBeInTheDocument();
  });

  it("renders the create-account question open when the URL asks for it (no JavaScript)", async () => {
    renderLogin({ confirmCreateAccount: true }, "/en/login?flow=f1&confirm=create-account");

    const dialog = await screen.findByRole("dialog", { name: "Create a new account?" });
    expect(dialog).toHaveAttribute("open");
    expect(within(dialog).getByRole("link", { name: "Yes, I have no account" })).toHaveAttribute(
      "href",
      "/en/registration",
    );
    expect(within(dialog).getByRole("link", { name: "No, I may have one" })).toHaveAttribute(
      "href",
      "/en/registration?nodna=1#nodna",
    );
  });

  it("opens the question as a modal in place when scripts can", async () => {
    const user = userEvent.setup();
    const opened: HTMLDialogElement[] = [];
    const prototype = HTMLDialogElement.prototype;
    prototype.showModal = function showModal(this: HTMLDialogElement) {
      opened.push(this);
      this.setAttribute("open", "");
    };
    try {
      renderLogin();
      await user.click(await screen.findByRole("link", { name: "Create account" }));

      // The dialog's code loads on that click (its own chunk), then it opens as a modal.
      expect(await screen.findByRole("dialog", { name: "Create a new account?" })).toHaveAttribute(
        "open",
      );
      expect(opened).toHaveLength(1);
      expect(screen.queryByText("navigated away")).toBeNull();
    } finally {
      Reflect.deleteProperty(prototype, "showModal");
    }
  });

  it("remembers the identifier when asked and fills it in next time", async () => {
    const user = userEvent.setup();
    const first = renderLogin();
    await user.type(await screen.findByLabelText("Email"), "jane@example.gov");
    await user.click(screen.getByRole("checkbox", { name: "Remember me" }));
    await user.click(screen.getByRole("button", { name: "Sign in with password" }));
    await waitFor(() => expect(window.localStorage.getItem("rememberMe")).toBe("true"));
    expect(window.localStorage.getItem("username")).toBe("jane@example.gov");
    first.unmount();

    renderLogin();
    await waitFor(() => expect(screen.getByLabelText("Email")).toHaveValue("jane@example.gov"));
    expect(screen.getByRole("checkbox", { name: "Remember me" })).toBeChecked();
  });

  it("forgets the identifier when signing in without remember-me", async () => {
    window.localStorage.setItem("rememberMe", "true");
    window.localStorage.setItem("username", "old@example.gov");
    const user = userEvent.setup();
    renderLogin();
    const checkbox = await screen.findByRole("checkbox", { name: "Remember me" });
    await waitFor(() => expect(checkbox).toBeChecked());

    await user.click(checkbox);
    await user.click(screen.getByRole("button", { name: "Sign in with password" }));

    await waitFor(() => expect(window.localStorage.getItem("rememberMe")).toBeNull());
    expect(window.localStorage.getItem("username")).toBeNull();
  });

  it("names the OAuth2 client and keeps its login challenge on the way to registration", async () => {
    renderLogin(
      {
        client: "Agency portal",
        challenge: "ch-1",
        registration: "?login_challenge=ch-1",
        confirmCreateAccount: true,
      },
      "/en/login?flow=f1&login_challenge=ch-1&confirm=create-account",
    );
    expect(await screen.findByText("Sign in to continue to Agency portal.")).toBeInTheDocument();
    const dialog = screen.getByRole("dialog", { name: "Create a new account?" });
    expect(within(dialog).getByRole("link", { name: "Yes, I have no account" })).toHaveAttribute(
      "href",
      "/en/registration?login_challenge=ch-1",
    );
    await waitFor(() =>
      expect(window.sessionStorage.getItem("oauth2_login_challenge_marker")).toBe("init"),
    );
  });

  it("says so in Spanish too", async () => {
    renderRoute({
      path: "/:lang/login",
      url: "/es/login?flow=f1",
      Component: Login,
      loader: () => ({
        flow: { ...initial, id: "f1", refresh: false },
        notice: undefined,
        invalid: false,
        confirmCreateAccount: false,
        client: "Agency portal",
        registration: "",
      }),
      locale: "es",
    });
    expect(
      await screen.findByText("Inicie sesión para continuar en Agency portal."),
    ).toBeInTheDocument();
  });

  it("shows 'login.oauth_interrupted' while the marker is invalid, after a reload too", async () => {
    window.sessionStorage.setItem("oauth2_login_challenge_marker", "invalid");
    const first = renderLogin();
    const alert = await screen.findByRole("alert");
    expect(
      within(alert).getByText(/was interrupted because you chose a different account/),
    ).toBeInTheDocument();
    expect(window.sessionStorage.getItem("oauth2_login_challenge_marker")).toBe("invalid");

    first.unmount();
    renderLogin();
    expect(
      await screen.findByText(/was interrupted because you chose a different account/),
    ).toBeInTheDocument();
  });

  it("drops 'login.oauth_interrupted' once the user submits the sign-in form", async () => {
    window.sessionStorage.setItem("oauth2_login_challenge_marker", "invalid");
    renderLogin();
    await screen.findByText(/was interrupted because you chose a different account/);

    await userEvent.type(screen.getByLabelText("Email"), "someone@example.org");
    await userEvent.click(screen.getByRole("button", { name: "Sign in with password" }));

    await waitFor(() =>
      expect(
        screen.queryByText(/was interrupted because you chose a different account/),
      ).toBeNull(),
    );
    expect(window.sessionStorage.getItem("oauth2_login_challenge_marker")).toBeNull();
  });

  it("on a refresh flow for a challenge, 'use a different account' abandons it: marker, sign-out, /login", async () => {
    const fetchStub = vi.fn(() => Promise.resolve(new Response("")));
    vi.stubGlobal("fetch", fetchStub);
    const close = vi.spyOn(window, "close").mockImplementation(() => undefined);
    renderLogin({ refresh: true, challenge: "ch-1" }, "/en/login?flow=f1&login_challenge=ch-1");
    await waitFor(() =>
      expect(window.sessionStorage.getItem("oauth2_login_challenge_marker")).toBe("init"),
    );

    await userEvent.click(screen.getByRole("button", { name: "Use a different account" }));

    expect(window.sessionStorage.getItem("oauth2_login_challenge_marker")).toBe("invalid");
    expect(close).toHaveBeenCalled();
    await waitFor(() =>
      expect(fetchStub).toHaveBeenCalledWith(
        "/en/logout",
        expect.objectContaining({ method: "POST" }),
      ),
    );
    expect(screen.queryByText("navigated away")).toBeNull();
    vi.unstubAllGlobals();
    close.mockRestore();
  });
});
