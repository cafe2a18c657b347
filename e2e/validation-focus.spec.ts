import { expect, test } from "@playwright/test";
import { strongPassword, uniqueEmail } from "./support.ts";

test.describe("focus after a submission (JavaScript on)", () => {
  test("a failed sign-in puts focus on the error that says why", async ({ page }) => {
    await page.goto("/en/login");
    await page.getByRole("textbox", { name: /^e-?mail$/i }).fill(uniqueEmail("focus-nobody"));
    await page.getByLabel("Password", { exact: true }).fill("Not-the-password-1");
    await page.getByRole("button", { name: "Sign in with password" }).click();

    await expect(
      page.getByRole("alert").filter({ hasText: /credentials are invalid/ }),
    ).toBeFocused();
  });

  test("a sign-up that lands on verification puts focus on the new page's heading", async ({
    page,
  }) => {
    const email = uniqueEmail("focus-signup");
    await page.goto("/en/registration");
    await page.getByRole("textbox", { name: /^e-?mail$/i }).fill(email);
    await page.getByRole("textbox", { name: /^confirm e-?mail$/i }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(strongPassword);
    await page.getByLabel("Confirm password").fill(strongPassword);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();

    await expect(page).toHaveURL(/\/en\/verification/);
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("'No' in the create-account dialog still shows the #nodna warning", async ({ page }) => {
    await page.goto("/en/login");
    await page.getByRole("link", { name: "Create account" }).click();
    const dialog = page.getByRole("dialog", { name: "Create a new account?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("link", { name: "No, I may have one" }).click();

    await expect(page).toHaveURL(/\/en\/registration\?.*nodna=1.*#nodna$/);
    await expect(
      page.getByRole("status").filter({ hasText: "You may already have an account." }),
    ).toBeVisible();
  });
});
