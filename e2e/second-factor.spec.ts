import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { mainStack, timedPrivilegedSeconds, timedStack } from "./stacks.ts";
import {
  createPerson,
  latestCode,
  linkAuthenticatorApp,
  signInWithPassword,
  strongPassword,
  uniqueEmail,
} from "./support.ts";

const agencySelection = `${mainStack.demoUrl}/agency-selection`;
const saved = "Your changes have been saved!";

async function signOut(page: Page, portalUrl = mainStack.portalUrl): Promise<void> {
  await page.goto(`${portalUrl}/en/logout`);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
}

test("authenticator app: required at sign-in, skipped on a trusted device until trust is removed", async ({
  page,
}) => {
  const email = uniqueEmail("totp");
  await createPerson(email);
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(agencySelection);
  const nextCode = await linkAuthenticatorApp(page);

  // The password alone is no longer enough.
  await signOut(page);
  await signInWithPassword(page, email);
  await expect(
    page.getByRole("heading", { level: 1, name: "Two-factor authentication" }),
  ).toBeVisible();
  await page.getByLabel("Trust this device for 30 days").check();
  await page.getByLabel("Authentication code").fill(nextCode());
  await page.getByRole("button", { name: "Use Authenticator" }).click();
  await expect(page).toHaveURL(agencySelection);

  // This browser is now trusted: the password is still asked, the second factor is not.
  await signOut(page);
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(agencySelection);

  await page.goto("/en/settings");
  const devices = page.getByRole("region", { name: "Manage trusted devices" });
  await devices.getByRole("button", { name: "Stop trusting this device" }).click();
  await expect(devices.getByText("You have no trusted devices.")).toBeVisible();

  await signOut(page);
  await signInWithPassword(page, email);
  await expect(
    page.getByRole("heading", { level: 1, name: "Two-factor authentication" }),
  ).toBeVisible();
});

test("a backup code signs in once", async ({ page }) => {
  const email = uniqueEmail("backup");
  await createPerson(email);
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(agencySelection);

  await page.goto("/en/settings");
  const card = page.getByRole("region", { name: "Backup codes" });
  await card.getByRole("button", { name: "Generate new backup recovery codes" }).click();
  const codes = card.getByRole("list").getByRole("listitem");
  await expect(codes).toHaveCount(12);
  const backupCode = ((await codes.first().textContent()) ?? "").trim();
  await card.getByRole("button", { name: "Confirm backup recovery codes" }).click();
  await expect(page.getByText(saved)).toBeVisible();

  for (const attempt of ["first", "second"]) {
    await signOut(page);
    await signInWithPassword(page, email);
    await page.getByLabel("Backup recovery code").fill(backupCode);
    await page.getByRole("button", { name: "Use backup recovery code" }).click();
    if (attempt === "first") {
      await expect(page).toHaveURL(agencySelection);
    } else {
      await expect(page.getByRole("alert").first()).toContainText("has already been used");
    }
  }
});

test("a code by e-mail works as the fallback second factor", async ({ page }) => {
  const email = uniqueEmail("code-mfa");
  await createPerson(email, { verified: true });
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(agencySelection);

  await page.goto("/en/settings");
  const card = page.getByRole("region", { name: "Codes by e-mail or text message" });
  await card.getByRole("button", { name: `Use codes sent to ${email} as a second factor` }).click();

  // The new factor is asked for at once, then at every sign-in.
  let previous: string | undefined;
  for (const moment of ["right away", "at the next sign-in"]) {
    if (moment === "at the next sign-in") {
      await signOut(page);
      await signInWithPassword(page, email);
    }
    await expect(
      page.getByRole("heading", { level: 1, name: "Two-factor authentication" }),
    ).toBeVisible();
    await page.getByRole("button", { name: `Send code to ${email}` }).click();
    previous = await latestCode(email, "login_code_valid", mainStack, previous);
    await page.getByLabel("Login code").fill(previous);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: "Two-factor authentication" }),
    ).toBeHidden();
  }
  await expect(page).toHaveURL(agencySelection);
});

test("the password can be changed in settings", async ({ page }) => {
  const email = uniqueEmail("change-password");
  const changed = "Another-Strong-Secret-7";
  await createPerson(email);
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(agencySelection);

  await page.goto("/en/settings");
  const card = page.getByRole("region", { name: "Change password" });
  await card.getByLabel("New password", { exact: true }).fill(changed);
  await card.getByLabel("Confirm new password").fill(changed);
  await card.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(saved)).toBeVisible();

  await signOut(page);
  await signInWithPassword(page, email, changed);
  await expect(page).toHaveURL(agencySelection);
});

test("an old sign-in must be confirmed before the password changes", async ({ page }) => {
  const email = uniqueEmail("privileged");
  const changed = "Another-Strong-Secret-8";
  await createPerson(email, {}, timedStack);
  await signInWithPassword(page, email, strongPassword, timedStack);
  await expect(page).toHaveURL(`${timedStack.demoUrl}/agency-selection`);
  await page.goto(`${timedStack.portalUrl}/en/settings`);
  // Nothing announces the end of the privileged window; the session has to grow old.
  await page.waitForTimeout(timedPrivilegedSeconds * 1000 + 500);

  const card = page.getByRole("region", { name: "Change password" });
  await card.getByLabel("New password", { exact: true }).fill(changed);
  await card.getByLabel("Confirm new password").fill(changed);
  await card.getByRole("button", { name: "Save" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Confirm action" })).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(strongPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Profile settings" })).toBeVisible();
  const again = page.getByRole("region", { name: "Change password" });
  await again.getByLabel("New password", { exact: true }).fill(changed);
  await again.getByLabel("Confirm new password").fill(changed);
  await again.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(saved)).toBeVisible();
});

for (const locale of ["en", "es"]) {
  for (const theme of ["light", "dark"]) {
    test(`axe finds no violation on settings and the second-factor step, ${locale} ${theme}`, async ({
      page,
      context,
    }) => {
      await context.addCookies([{ name: "theme", value: theme, url: mainStack.portalUrl }]);
      const email = uniqueEmail("axe-2fa");
      await createPerson(email);
      await signInWithPassword(page, email);
      await expect(page).toHaveURL(agencySelection);
      await linkAuthenticatorApp(page);
      await page.goto(`/${locale}/settings`);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

      await signOut(page);
      await signInWithPassword(page, email);
      await page.goto(page.url().replace("/en/", `/${locale}/`));
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    });
  }
}
