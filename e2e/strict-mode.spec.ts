import { expect, test, type Page } from "@playwright/test";
import { strictStack } from "./stacks.ts";
import { scaled } from "./timing.ts";
import {
  authenticatorApp,
  createPerson,
  latestCode,
  signInWithPassword,
  signOutOfAgencyProduct,
  strongPassword,
  uniqueEmail,
} from "./support.ts";

// The portal's core journeys against the identity server in strict mode
// (IDENTITY_ORY_EXTENSIONS=false), which answers as Kratos and Hydra would: what depends on an
// addition of ours (trusted devices, codes as a second factor per address) is simply absent.

const { portalUrl, demoUrl } = strictStack;
const agencySelection = `${demoUrl}/agency-selection`;
const saved = "Your changes have been saved!";

async function signOut(page: Page): Promise<void> {
  await page.goto(`${portalUrl}/en/logout`);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
}

async function expectSecondFactorStep(page: Page): Promise<void> {
  await expect(
    page.getByRole("heading", { level: 1, name: "Two-factor authentication" }),
  ).toBeVisible();
}

test("strict: sign up from the agency product, verify, come back signed in, sign out, sign in again", async ({
  page,
}) => {
  const email = uniqueEmail("strict-signup");
  await page.goto(demoUrl);
  await page.getByRole("link", { name: "Sign in" }).click();
  await page
    .getByRole("link", { name: "Create account" })
    .or(page.getByRole("button", { name: "Create account" }))
    .click();
  await page.getByRole("link", { name: "Yes, I have no account" }).click();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Confirm email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(strongPassword);
  await page.getByLabel("Confirm password").fill(strongPassword);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Verify your account" })).toBeVisible();
  await page
    .getByLabel("Verification code")
    .fill(await latestCode(email, "verification_code_valid", strictStack));
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("link", { name: "Continue" }).click();
  await expect(page).toHaveURL(agencySelection);
  await expect(page.getByTestId("signed-in-email")).toHaveText(email);

  await signOutOfAgencyProduct(page, true);
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("Not-The-Password-1");
  await page.getByRole("button", { name: "Sign in with password" }).click();
  await expect(page.getByRole("alert").first()).toContainText(
    "The provided credentials are invalid",
  );
  await page.getByLabel("Password").fill(strongPassword);
  await page.getByRole("button", { name: "Sign in with password" }).click();
  await expect(page).toHaveURL(agencySelection);
});

test("strict: authenticator app at sign-in, with no trusted devices and no code card", async ({
  page,
}) => {
  test.setTimeout(scaled(60_000));
  const email = uniqueEmail("strict-totp");
  await createPerson(email, { verified: true }, strictStack);
  await signInWithPassword(page, email, strongPassword, strictStack);
  await expect(page).toHaveURL(agencySelection);

  await page.goto(`${portalUrl}/en/settings`);
  const card = page.getByRole("region", { name: "Authenticator app" });
  await expect(card.getByRole("img", { name: "Authenticator app QR code" })).toBeVisible();
  const nextCode = authenticatorApp((await card.locator("#totp-secret-key").textContent()) ?? "");
  await card.getByLabel("Verify code").fill(await nextCode());
  await card.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(saved)).toBeVisible();
  await expect(card.getByRole("button", { name: "Remove authenticator app" })).toBeVisible();
  // The cards of our additions are absent, not broken.
  await expect(page.getByRole("region", { name: "Manage trusted devices" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /as a second factor/ })).toHaveCount(0);

  await signOut(page);
  await signInWithPassword(page, email, strongPassword, strictStack);
  await expectSecondFactorStep(page);
  await expect(page.getByLabel(/Trust this device/)).toHaveCount(0);
  await page.getByLabel("Authentication code").fill(await nextCode());
  await page.getByRole("button", { name: "Use your authenticator app" }).click();
  await expect(page).toHaveURL(agencySelection);
});

test("strict: a backup code signs in once", async ({ page }) => {
  test.setTimeout(scaled(60_000));
  const email = uniqueEmail("strict-backup");
  await createPerson(email, {}, strictStack);
  await signInWithPassword(page, email, strongPassword, strictStack);
  await expect(page).toHaveURL(agencySelection);
  await page.goto(`${portalUrl}/en/settings`);
  const card = page.getByRole("region", { name: "Backup codes" });
  await card.getByRole("button", { name: "Generate new backup recovery codes" }).click();
  const codes = card.getByRole("list").getByRole("listitem");
  await expect(codes).toHaveCount(12);
  const backupCode = ((await codes.first().textContent()) ?? "").trim();
  await card.getByRole("button", { name: "Confirm backup recovery codes" }).click();
  await expect(page.getByText(saved)).toBeVisible();

  for (const attempt of ["first", "second"]) {
    await signOut(page);
    await signInWithPassword(page, email, strongPassword, strictStack);
    await expectSecondFactorStep(page);
    await page.getByLabel("Backup recovery code").fill(backupCode);
    await page.getByRole("button", { name: "Use backup recovery code" }).click();
    if (attempt === "first") await expect(page).toHaveURL(agencySelection);
    else await expect(page.getByRole("alert").first()).toContainText("has already been used");
  }
});

test("strict: forgot password, code from the mailbox, new password, signed in", async ({
  page,
}) => {
  const email = uniqueEmail("strict-recover");
  const newPassword = "Another-Horse-Battery-7";
  await createPerson(email, {}, strictStack);
  await page.goto(`${portalUrl}/en/login`);
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Password reset" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("An email containing a recovery code has been sent")).toBeVisible();
  await page
    .getByLabel("Recovery code")
    .fill(await latestCode(email, "recovery_code_valid", strictStack));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("You successfully recovered your account.")).toBeVisible();
  const passwordCard = page.getByRole("region", { name: "Change password" });
  await passwordCard.getByLabel("New password", { exact: true }).fill(newPassword);
  await passwordCard.getByLabel("Confirm new password").fill(newPassword);
  await passwordCard.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(saved)).toBeVisible();
  await signOut(page);
  await signInWithPassword(page, email, newPassword, strictStack);
  await expect(page).toHaveURL(agencySelection);
});
