import { expect, test, type Page } from "@playwright/test";
import { strictPasswordsPerIdentifier, strictPrivilegedSeconds, strictStack } from "./stacks.ts";
import { scaled } from "./timing.ts";
import {
  authenticatorApp,
  createPerson,
  latestCode,
  signInWithPassword,
  signOutOfAgencyProduct,
  strongPassword,
  uniqueEmail,
  waitUntilSessionOlderThan,
  signOutAtPortal,
} from "./support.ts";

// The portal's core journeys against the identity server in strict mode
// (IDENTITY_ORY_EXTENSIONS=false), which answers as Kratos and Hydra would: what depends on an
// addition of ours (trusted devices, codes as a second factor per address) is simply absent.

const { portalUrl, demoUrl } = strictStack;
const agencySelection = `${demoUrl}/agency-selection`;
const saved = "Your changes have been saved!";

async function signOut(page: Page): Promise<void> {
  await signOutAtPortal(page, portalUrl);
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
  // The sign-in page has an "Email" field too: wait until the sign-up page is the one shown.
  await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Confirm email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(strongPassword);
  await page.getByLabel("Confirm password").fill(strongPassword);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
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

test("strict: forgot password, a wrong code, the code from the mailbox, new password, signed in", async ({
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
  const code = await latestCode(email, "recovery_code_valid", strictStack);
  // A wrong code first: Kratos' message, and the same form takes the right one.
  await page.getByLabel("Recovery code").fill(code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert").first()).toContainText(
    "The recovery code is invalid or has already been used.",
  );
  await page.getByLabel("Recovery code").fill(code);
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

test("strict: settings signs another session out; an old sign-in is re-confirmed before the password changes", async ({
  page,
  browser,
}) => {
  // Waits out the privileged window besides the journey itself.
  test.setTimeout(scaled(40_000) + strictPrivilegedSeconds * 1000);
  const email = uniqueEmail("strict-settings");
  const changed = "Another-Strong-Secret-8";
  await createPerson(email, { verified: true }, strictStack);
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await signInWithPassword(other, email, strongPassword, strictStack);
  await expect(other).toHaveURL(agencySelection);
  await signInWithPassword(page, email, strongPassword, strictStack);
  await expect(page).toHaveURL(agencySelection);

  await page.goto(`${portalUrl}/en/settings`);
  const sessions = page.getByRole("region", { name: "Active sessions" });
  await expect(sessions.getByRole("listitem")).toHaveCount(2);
  await sessions.getByRole("button", { name: "Sign out this session" }).click();
  await expect(sessions.getByText("The session was signed out.")).toBeVisible();
  await expect(sessions.getByText("You are not signed in anywhere else.")).toBeVisible();
  expect((await other.request.get(`${portalUrl}/api/kratos/sessions/whoami`)).status()).toBe(401);
  await elsewhere.close();

  // Kratos answers 403 session_refresh_required; the portal asks for the password, then saves.
  await waitUntilSessionOlderThan(page, strictPrivilegedSeconds, strictStack);
  const card = page.getByRole("region", { name: "Change password" });
  await card.getByLabel("New password", { exact: true }).fill(changed);
  await card.getByLabel("Confirm new password").fill(changed);
  await card.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Confirm action" })).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(strongPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Profile settings" })).toBeVisible();
  await card.getByLabel("New password", { exact: true }).fill(changed);
  await card.getByLabel("Confirm new password").fill(changed);
  await card.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(saved)).toBeVisible();
});

test("strict: signed in at the portal, the agency product's sign-in continues as the account", async ({
  page,
  context,
}) => {
  const email = uniqueEmail("strict-continue");
  await createPerson(email, { verified: true }, strictStack);
  await signInWithPassword(page, email, strongPassword, strictStack);
  await expect(page).toHaveURL(agencySelection);
  // The agency product's own session is gone, the portal's is not.
  await context.clearCookies({ name: "demo_session" });
  await page.goto(agencySelection);
  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose an account" })).toBeVisible();
  await page.getByRole("button", { name: `Continue as ${email}` }).click();
  await expect(page).toHaveURL(agencySelection);
  await expect(page.getByTestId("signed-in-email")).toHaveText(email);
});

test("strict: an unknown form and a failed CSRF check start a new form with a notice, which works", async ({
  page,
  context,
}) => {
  const email = uniqueEmail("strict-errors");
  await createPerson(email, {}, strictStack);
  const unknownFlow = "3b1f8a52-0c4e-4d7a-9a51-7f2c6d0e9b14";
  await page.goto(`${portalUrl}/en/login?flow=${unknownFlow}`);
  await expect(notice(page, "The form expired. Please try again.")).toBeVisible();
  await expect(page).toHaveURL(/[?&]flow=[\w-]+/);
  expect(new URL(page.url()).searchParams.get("flow")).not.toBe(unknownFlow);

  const csrfCookies = (await context.cookies()).filter(({ name }) => name.startsWith("csrf_token"));
  expect(csrfCookies).not.toHaveLength(0);
  for (const { name } of csrfCookies) await context.clearCookies({ name });
  await fillSignIn(page, email, strongPassword);
  await expect(
    notice(page, "For your security the form was reset. Please try again."),
  ).toBeVisible();
  await expect(page).toHaveURL(/notice=csrf/);
  await fillSignIn(page, email, strongPassword);
  await expect(page).toHaveURL(agencySelection);
});

test("strict: too many wrong passwords, and the identity server's 429 is shown as the wait, the form kept", async ({
  page,
}) => {
  const email = uniqueEmail("strict-limit");
  await createPerson(email, {}, strictStack);
  await page.goto(`${portalUrl}/en/login`);
  for (let attempt = 1; attempt <= strictPasswordsPerIdentifier; attempt += 1) {
    await fillSignIn(page, email, `Not-The-Password-${attempt}`);
    await expect(page.getByRole("alert").first()).toContainText(
      "The provided credentials are invalid",
    );
  }
  // Limited, even the right password is refused (and not checked) until the window moves on.
  await fillSignIn(page, email, strongPassword);
  const limited = page.getByRole("alert").filter({ hasText: "Too many requests" });
  await expect(limited).toContainText(
    /The sign-in service is receiving too many requests\. Try again in \d+ minutes?\./,
  );
  await expect(page.getByLabel("Email")).toHaveValue(email);
  expect(new URL(page.url()).pathname).toBe("/en/login");
});

/** A notice in the app shell's toast region (sonner's "Notifications" landmark). */
function notice(page: Page, text: string) {
  return page.getByRole("region", { name: /Notifications/ }).getByText(text);
}

/**
 * Fills and submits the sign-in form, and waits for the submission's answer: a repeated
 * submission's message would otherwise be the previous one's.
 */
async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  const answered = page.waitForResponse(
    (response) =>
      response.request().method() === "POST" && new URL(response.url()).pathname.includes("/login"),
  );
  await page.getByRole("button", { name: "Sign in with password" }).click();
  await answered;
}
