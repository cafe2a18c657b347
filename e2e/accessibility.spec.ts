import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { portalUrl } from "./playwright.config.ts";

for (const locale of ["en", "es"]) {
  for (const theme of ["light", "dark"]) {
    for (const screen of ["login", "registration"]) {
      test(`axe finds no violation on /${locale}/${screen} in ${theme}`, async ({
        page,
        context,
      }) => {
        await context.addCookies([{ name: "theme", value: theme, url: portalUrl }]);
        await page.goto(`/${locale}/${screen}`);
        await expect(page.locator("html")).toHaveAttribute("lang", locale);
        if (theme === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.violations).toEqual([]);
      });
    }
  }
}

test("axe finds no violation when a sign-in fails (error messages shown)", async ({ page }) => {
  await page.goto("/en/login");
  await page.getByLabel("Email").fill("nobody@example.org");
  await page.getByLabel("Password").fill("Wrong-password-1");
  await page.getByRole("button", { name: "Sign in with password" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
});
