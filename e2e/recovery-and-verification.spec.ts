import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { demoUrl, portalUrl } from "./playwright.config.ts";
import {
  createPerson,
  latestCode,
  strongPassword,
  uniqueEmail,
  signOutAtPortal,
} from "./support.ts";

const newPassword = "Brand-New-Secret-42";

async function requestRecoveryCode(page: Page, email: string): Promise<void> {
  await page.goto("/en/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Password reset" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("An email containing a recovery code has been sent")).toBeVisible();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`recovery with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("forgot password: code from the mailbox, new password, signed in", async ({ page }) => {
      const email = uniqueEmail(javaScriptEnabled ? "recover-js" : "recover-nojs");
      await createPerson(email);
      await requestRecoveryCode(page, email);
      await page.getByLabel("Recovery code").fill(await latestCode(email, "recovery_code_valid"));
      await page.getByRole("button", { name: "Continue" }).click();

      await expect(page.getByRole("heading", { level: 1, name: "Profile settings" })).toBeVisible();
      await expect(page.getByText("You successfully recovered your account.")).toBeVisible();
      const passwordCard = page.getByRole("region", { name: "Change password" });
      await passwordCard.getByLabel("New password", { exact: true }).fill(newPassword);
      await passwordCard.getByLabel("Confirm new password").fill(newPassword);
      await passwordCard.getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("Your changes have been saved!")).toBeVisible();

      // The new password works and the old one no longer does.
      await signOutAtPortal(page);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(strongPassword);
      await page.getByRole("button", { name: "Sign in with password" }).click();
      await expect(page.getByRole("alert").first()).toContainText(
        "The provided credentials are invalid",
      );
      await page.getByLabel("Password", { exact: true }).fill(newPassword);
      await page.getByRole("button", { name: "Sign in with password" }).click();
      await expect(page).toHaveURL(`${demoUrl}/agency-selection`);
    });
  });
}

test("a wrong recovery code is explained, and the sixth try is refused", async ({ page }) => {
  const email = uniqueEmail("recover-wrong");
  await createPerson(email);
  await requestRecoveryCode(page, email);
  const right = await latestCode(email, "recovery_code_valid");
  const wrong = right === "000000" ? "111111" : "000000";
  const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
  for (let attempt = 1; attempt <= 5; attempt++) {
    await test.step(`wrong code ${attempt}`, async () => {
      await page.getByLabel("Recovery code").fill(wrong);
      await page.getByRole("button", { name: "Continue" }).click();
      // This attempt's answer has arrived when focus moves to the error summary (the message
      // below is the same after every attempt, so it cannot tell the answers apart).
      await expect(summary).toBeFocused();
      // The message belongs to the code field: it describes it (and the summary links to it).
      await expect(page.getByLabel("Recovery code")).toHaveAccessibleDescription(
        /The recovery code is invalid or has already been used\. Please try again\./,
      );
    });
  }
  // Even the right code is refused once the flow has used up its tries.
  await page.getByLabel("Recovery code").fill(right);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(
    page.getByText("You entered a code too many times. Please request a new code."),
  ).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Password reset" })).toBeVisible();
});

test("a wrong verification code is explained", async ({ page }) => {
  const email = uniqueEmail("verify-wrong");
  await createPerson(email);
  await page.goto("/en/verification");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  const right = await latestCode(email, "verification_code_valid");
  await page.getByLabel("Verification code").fill(right === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByLabel("Verification code")).toHaveAccessibleDescription(
    /The verification code is invalid or has already been used\. Please try again\./,
  );
  await page.getByLabel("Verification code").fill(right);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("You successfully verified your email address.")).toBeVisible();
});

test("a phone number is verified by a code sent by SMS", async ({ page }) => {
  const email = uniqueEmail("verify-phone");
  const phone = `+1202555${String(Math.floor(1000 + Math.random() * 8999))}`;
  await createPerson(email, { traits: { phone } });
  await page.goto("/en/verification");
  await page.getByRole("button", { name: "Use phone instead" }).click();
  await page.getByLabel("Phone number").fill(phone);
  await page.getByRole("button", { name: "Continue" }).click();
  await page
    .getByLabel("Verification code")
    .fill(await latestCode(phone, "verification_code_valid"));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("You successfully verified your phone number.")).toBeVisible();
});

for (const locale of ["en", "es"]) {
  for (const theme of ["light", "dark"]) {
    for (const screen of ["recovery", "verification"]) {
      test(`axe finds no violation on /${locale}/${screen} in ${theme}`, async ({
        page,
        context,
      }) => {
        await context.addCookies([{ name: "theme", value: theme, url: portalUrl }]);
        await page.goto(`/${locale}/${screen}`);
        await expect(page.locator("html")).toHaveAttribute("lang", locale);
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.violations).toEqual([]);
      });
    }
  }
}
