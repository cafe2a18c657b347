import { expect, test } from "@playwright/test";

for (const javaScriptEnabled of [true, false]) {
  test.describe(`layout with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("switching language keeps the flow in the query string", async ({ page }) => {
      await page.goto("/en/login");
      await expect(page).toHaveURL(/\/en\/login\?flow=[0-9a-f-]{36}$/);
      const query = new URL(page.url()).search;
      await expect(page.locator("html")).toHaveAttribute("lang", "en");

      await page
        .getByRole("navigation", { name: "Language" })
        .getByRole("link", { name: "Español" })
        .click();
      await expect(page).toHaveURL(`/es/login${query}`);
      await expect(page.locator("html")).toHaveAttribute("lang", "es");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Iniciar sesión");
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
