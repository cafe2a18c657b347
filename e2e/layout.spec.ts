import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";

/** The sign-in form: the one that carries the flow's CSRF token. */
const signInForm = (page: Page) =>
  page.locator("form", { has: page.locator('[name="csrf_token"]') });

for (const javaScriptEnabled of [true, false]) {
  test.describe(`layout with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("switching language keeps the flow in the query string", async ({ page }) => {
      const dataRequests: string[] = [];
      page.on("request", (request) => {
        if (new URL(request.url()).pathname.endsWith(".data")) dataRequests.push(request.url());
      });
      await page.goto("/en/login");
      // The page renders the flow it created in the same response: its form posts to the address
      // that names the flow; with JavaScript the address bar names it too (a reload keeps it),
      // without it stays as typed (a reload makes a new flow).
      const action = await signInForm(page).getAttribute("action");
      const flow = new URL(action ?? "", page.url()).searchParams.get("flow") ?? "";
      expect(flow).toMatch(/^[0-9a-f-]{36}$/);
      await expect(page).toHaveURL(javaScriptEnabled ? `/en/login?flow=${flow}` : "/en/login");
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      // Naming the flow in the address bar is no navigation: the page's data is not read again.
      expect(dataRequests).toEqual([]);

      await page
        .getByRole("navigation", { name: "Language" })
        .getByRole("link", { name: "Español" })
        .click();
      await expect(page).toHaveURL(`/es/login?flow=${flow}`);
      await expect(page.locator("html")).toHaveAttribute("lang", "es");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Iniciar sesión");
    });

    test(`a reload ${javaScriptEnabled ? "keeps the flow" : "makes a new flow"}`, async ({
      page,
    }) => {
      await page.goto("/en/login");
      const before = await signInForm(page).getAttribute("action");
      await page.reload();
      const after = await signInForm(page).getAttribute("action");
      if (javaScriptEnabled) expect(after).toBe(before);
      else expect(after).not.toBe(before);
    });

    test("the dark theme survives a reload", async ({ page }) => {
      await page.goto("/en/login");
      await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
      await page.getByRole("button", { name: "Dark theme" }).click();
      await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      await page.reload();
      await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      await expect(page.getByRole("button", { name: "Dark theme" })).toHaveAttribute(
        "aria-pressed",
        "true",
      );
    });
  });
}

test("the layout links back to the portal and shows the build label", async ({ page }) => {
  await page.goto("/en/login");
  await expect(page.getByRole("link", { name: "Back to portal" })).toHaveAttribute(
    "href",
    /\/agency-selection$/,
  );
  await expect(page.getByRole("contentinfo")).toContainText("663");
});
