import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderRoute } from "../../test/route-stub.tsx";
import Logout from "./logout.tsx";

function renderLogout(client: string | undefined, locale: "en" | "es" = "en") {
  const action = vi.fn(async ({ request }: { request: Request }) =>
    Object.fromEntries((await request.formData()).entries()),
  );
  renderRoute({
    path: "/:lang/logout",
    url: `/${locale}/logout?logout_challenge=lo-ch`,
    Component: Logout,
    loader: () => ({ challenge: "lo-ch", client }),
    action,
    locale,
  });
  return { action };
}

describe("the sign-out question", () => {
  it("names the client and posts Yes with the challenge", async () => {
    const { action } = renderLogout("Agency portal");

    expect(await screen.findByRole("heading", { level: 1, name: "Sign out?" })).toBeInTheDocument();
    expect(screen.getByText("Do you want to sign out of Agency portal?")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Yes, sign out" }));

    await vi.waitFor(() => expect(action).toHaveBeenCalledTimes(1));
    await expect(action.mock.results[0]?.value).resolves.toEqual({
      logout_challenge: "lo-ch",
      decision: "yes",
    });
  });

  it("asks in Spanish without a client and posts No", async () => {
    const { action } = renderLogout(undefined, "es");

    expect(await screen.findByText("¿Desea cerrar la sesión?")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "No, seguir conectado" }));

    await vi.waitFor(() => expect(action).toHaveBeenCalledTimes(1));
    await expect(action.mock.results[0]?.value).resolves.toMatchObject({ decision: "no" });
  });
});

describe("a sign-out that did not come from the portal's own page", () => {
  function renderConfirmation(fields: Record<string, string>, locale: "en" | "es" = "en") {
    renderRoute({
      path: "/:lang/logout",
      url: `/${locale}/logout`,
      Component: Logout,
      loader: () => ({ confirmSignOut: true, fields }),
      locale,
    });
  }

  it("asks about the portal in a plain POST form that carries what the link said", async () => {
    renderConfirmation({ login_challenge: "ch-1" });

    expect(await screen.findByRole("heading", { level: 1, name: "Sign out?" })).toBeInTheDocument();
    expect(screen.getByText("Do you want to sign out of Agency Sign-In?")).toBeInTheDocument();
    const yes = screen.getByRole("button", { name: "Yes, sign out" });
    const form = yes.closest("form");
    // A document post (no JavaScript needed), same origin: the action then signs out.
    expect(form).toHaveAttribute("method", "post");
    expect(form).toHaveAttribute("action", "/en/logout");
    expect(Object.fromEntries(new FormData(form ?? undefined))).toEqual({
      login_challenge: "ch-1",
    });
    expect(screen.getByRole("link", { name: "No, stay signed in" })).toHaveAttribute("href", "/en");
  });

  it("speaks Spanish", async () => {
    renderConfirmation({}, "es");

    expect(
      await screen.findByText("¿Desea cerrar la sesión en Acceso de la Agencia?"),
    ).toBeVisible();
    expect(screen.getByRole("button", { name: "Sí, cerrar sesión" })).toBeInTheDocument();
  });
});
