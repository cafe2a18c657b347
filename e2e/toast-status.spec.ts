import { expect, test } from "@playwright/test";

// The restart reason the dispatcher puts in ?notice=, and the status its toast must show.
for (const [notice, status] of [
  ["expired", "warning"],
  ["failed", "error"],
] as const) {
  for (const screen of ["login", "registration"]) {
    test(`on /en/${screen}, the '${notice}' toast is a ${status}`, async ({ page }) => {
      await page.goto(`/en/${screen}?notice=${notice}`);
      const toast = page.locator("[data-sonner-toast]");
      await expect(toast).toBeVisible();
      await expect(toast).toHaveAttribute("data-type", status);
    });
  }
}
