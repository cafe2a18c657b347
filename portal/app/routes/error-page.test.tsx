import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderRoute } from "../../test/route-stub.tsx";
import ErrorPage from "./error.tsx";

describe("the error page", () => {
  it.each([
    ["en", "Something went wrong", "Go back"],
    ["es", "Algo salió mal", "Volver"],
  ] as const)("says so in %s and links back to the start", async (locale, title, back) => {
    renderRoute({
      path: "/:lang/error",
      url: `/${locale}/error?id=e1`,
      Component: ErrorPage,
      loader: () => ({ problem: undefined }),
      locale,
    });

    expect(await screen.findByRole("heading", { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: back })).toHaveAttribute("href", `/${locale}`);
  });

  it.each([
    ["en", "expired", /unknown or has expired/],
    ["es", "expired", /desconocida o ha caducado/],
    ["en", "unavailable", /could not complete the request/],
    ["en", "sessionMismatch", /not signed in as the account/],
  ] as const)(
    "in %s explains an OAuth2 request that cannot go on (%s)",
    async (locale, problem, text) => {
      renderRoute({
        path: "/:lang/error",
        url: `/${locale}/error?oauth2=${problem}`,
        Component: ErrorPage,
        loader: () => ({ problem }),
        locale,
      });

      expect(await screen.findByText(text)).toBeInTheDocument();
    },
  );
});
