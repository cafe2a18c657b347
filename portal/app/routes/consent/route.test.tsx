import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import type { ConsentView } from "./consent.server.ts";
import Consent from "./route.tsx";

const view: ConsentView = {
  challenge: "consent-ch",
  client: {
    name: "Agency portal",
    logo: "https://cdn.example.gov/logo.svg",
    policy: "https://agency.example.gov/privacy",
    tos: undefined,
  },
  scopes: ["openid", "email", "offline_access", "calendar.read"],
};

function renderConsent(data: ConsentView = view, locale: "en" | "es" = "en") {
  const action = vi.fn(async ({ request }: { request: Request }) => {
    const form = await request.formData();
    return Object.fromEntries(form.entries());
  });
  renderRoute({
    path: "/:lang/consent",
    url: `/${locale}/consent?consent_challenge=consent-ch`,
    Component: Consent,
    loader: () => data,
    action,
    locale,
  });
  return { action };
}

describe("the consent page", () => {
  it("names the client and lists what it asks for, unknown scopes by name", async () => {
    renderConsent();

    expect(
      await screen.findByRole("heading", { level: 1, name: "Allow access?" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Logo of Agency portal" })).toHaveAttribute(
      "src",
      "https://cdn.example.gov/logo.svg",
    );
    const list = screen.getByRole("list", { name: "Agency portal would like to:" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      "Confirm who you are",
      "See your email address",
      "Stay connected when you are not using it",
      "Use the permission “calendar.read”",
    ]);
    expect(screen.getByRole("link", { name: "Privacy policy of Agency portal" })).toHaveAttribute(
      "href",
      "https://agency.example.gov/privacy",
    );
    expect(screen.queryByRole("link", { name: /Terms of service/ })).toBeNull();
    expect(screen.getByRole("checkbox", { name: "Remember my decision" })).not.toBeChecked();
  });

  it("speaks Spanish", async () => {
    renderConsent({ ...view, client: { name: "Agency portal" }, scopes: ["profile"] }, "es");

    expect(
      await screen.findByRole("heading", { level: 1, name: "¿Permitir el acceso?" }),
    ).toBeInTheDocument();
    expect(screen.getByText("Ver su nombre y los datos de su perfil")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Permitir" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Denegar" })).toBeInTheDocument();
    expect(screen.queryByRole("img")).toBeNull();
  });

  it("says so when no permission is asked for", async () => {
    renderConsent({ ...view, scopes: [] });
    expect(await screen.findByText("Agency portal asks for no permissions.")).toBeInTheDocument();
  });

  it("posts Allow with the remember choice and the challenge, by keyboard", async () => {
    const { action } = renderConsent();
    const user = userEvent.setup();
    await screen.findByRole("heading", { level: 1 });

    await user.tab();
    await user.keyboard(" ");
    await user.tab();
    expect(screen.getByRole("button", { name: "Allow" })).toHaveFocus();
    await user.keyboard("{Enter}");

    await vi.waitFor(() => expect(action).toHaveBeenCalledTimes(1));
    await expect(action.mock.results[0]?.value).resolves.toEqual({
      consent_challenge: "consent-ch",
      remember: "true",
      decision: "allow",
    });
  });

  it("posts Deny", async () => {
    const { action } = renderConsent();
    await userEvent.click(await screen.findByRole("button", { name: "Deny" }));
    await vi.waitFor(() => expect(action).toHaveBeenCalledTimes(1));
    await expect(action.mock.results[0]?.value).resolves.toMatchObject({ decision: "deny" });
  });
});
