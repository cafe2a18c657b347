import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { portalUrl } from "./playwright.config.ts";
import { createPerson, signInWithPassword, uniqueEmail } from "./support.ts";
import { scaled } from "./timing.ts";

/** WCAG 2.2 AA (target size included) and axe's best practices. */
async function violations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  return results.violations;
}

// One journey per language and theme: each screen as it first shows, then with its errors.
for (const locale of ["en", "es"]) {
  for (const theme of ["light", "dark"]) {
    test(`axe finds no violation on sign-in, sign-up and settings, with and without errors, ${locale} ${theme}`, async ({
      page,
      context,
    }) => {
      // Five axe runs and a sign-in: about 15 s on an idle machine.
      test.setTimeout(scaled(60_000));
      await context.addCookies([{ name: "theme", value: theme, url: portalUrl }]);

      await test.step("sign-in, then a failed sign-in", async () => {
        await page.goto(`/${locale}/login`);
        await expect(page.locator("html")).toHaveAttribute("lang", locale);
        if (theme === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
        expect(await violations(page), "sign-in").toEqual([]);
        await page.locator("input[name=identifier]").fill("nobody@example.org");
        await page.locator("input[name=password]").fill("Wrong-password-1");
        await page.locator("button[name=method][value=password]").click();
        await expect(page.getByRole("alert").first()).toBeVisible();
        expect(await violations(page), "failed sign-in").toEqual([]);
      });

      await test.step("sign-up, then its errors with the summary's links", async () => {
        await page.goto(`/${locale}/registration`);
        await expect(page.locator("form button[type=submit][name=method]").first()).toBeVisible();
        expect(await violations(page), "sign-up").toEqual([]);
        await page.locator("form button[type=submit][name=method]").first().click();
        await expect(page.locator("a[href^='#']").filter({ visible: true }).first()).toBeVisible();
        expect(await violations(page), "sign-up errors").toEqual([]);
      });

      await test.step("settings", async () => {
        const email = uniqueEmail(`axe-settings-${locale}-${theme}`);
        await createPerson(email, { verified: true });
        await signInWithPassword(page, email);
        await page.waitForURL((url) => !url.pathname.endsWith("/login"));
        await page.goto(`/${locale}/settings`);
        await expect(page.locator("html")).toHaveAttribute("lang", locale);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        expect(await violations(page), "settings").toEqual([]);
      });
    });
  }
}
