import { render, screen } from "@testing-library/react";
import { Outlet, createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import en from "./i18n/en.json";
import { holdCatalogue } from "./i18n/page-catalogue.ts";
import { ErrorBoundary } from "./root.tsx";
import { ThemeContext } from "./theme/theme-context.tsx";

// The browser holds the whole English catalogue (read before this navigation).
holdCatalogue("en", en);

const rootData = {
  locale: "en",
  links: {
    ssoPortalUrl: "http://localhost:4100",
    supportUrl: "mailto:support@example.gov",
    year: 2026,
  },
};

/** A page whose loader answers as React Router's client does for a `.data` response of `status`. */
function renderFailing(status: number) {
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      loader: () => rootData,
      Component: () => <Outlet />,
      // The root Layout's theme context, around the boundary as React Router renders it.
      ErrorBoundary: ((props: Parameters<typeof ErrorBoundary>[0]) => (
        <ThemeContext
          value={{ theme: "light", setTheme: () => undefined, cookieDomain: undefined }}
        >
          <ErrorBoundary {...props} />
        </ThemeContext>
      )) as never,
      HydrateFallback: () => null,
      children: [
        {
          path: "/:lang/settings",
          loader: () => {
            throw new Response("<!doctype html>…", { status });
          },
          Component: () => <p>settings</p>,
        },
      ],
    },
  ]);
  render(<Stub initialEntries={["/en/settings?flow=s1"]} />);
}

describe("the root error boundary", () => {
  it("shows 'Starting…' with a link to try the same address again for a 503", async () => {
    renderFailing(503);

    expect(await screen.findByRole("heading", { level: 1, name: "Starting…" })).toBeVisible();
    expect(
      screen.getByText("The sign-in service is starting. Please try again in a few seconds."),
    ).toBeVisible();
    expect(screen.getByRole("link", { name: "Try again now" })).toHaveAttribute(
      "href",
      "/en/settings?flow=s1",
    );
  });

  it("still says 'Something went wrong' for another server error", async () => {
    renderFailing(500);

    expect(
      await screen.findByRole("heading", { level: 1, name: "Something went wrong" }),
    ).toBeVisible();
    expect(screen.queryByRole("link", { name: "Try again now" })).toBeNull();
  });
});
