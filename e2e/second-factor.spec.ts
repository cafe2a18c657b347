import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { mainStack, timedPrivilegedSeconds, timedStack } from "./stacks.ts";
import { scaled } from "./timing.ts";
import {
  createPerson,
  latestCode,
  linkAuthenticatorApp,
  signInWithPassword,
  strongPassword,
  uniqueEmail,
  waitUntilSessionOlderThan,
  signOutAtPortal,
} from "./support.ts";

const agencySelection = `${mainStack.demoUrl}/agency-selection`;
const saved = "Your changes have been saved!";

async function signOut(page: Page, portalUrl = mainStack.portalUrl): Promise<void> {
  await signOutAtPortal(page, portalUrl);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
}

async function expectSecondFactorStep(page: Page): Promise<void> {
  await expect(
    page.getByRole("heading", { level: 1, name: "Two-factor authentication" }),
  ).toBeVisible();
}

test("authenticator app: required at sign-in, skipped on a trusted device until trust is removed", async ({
  browser,
  page,
}) => {
  // Five sign-ins: about 16 s on an idle 2-core machine, so twice that and more.
  test.setTimeout(scaled(75_000));
  const email = uniqueEmail("totp");
  await createPerson(email);
  const nextCode = await test.step("sign in and link an authenticator app", async () => {
    await signInWithPassword(page, email);
    await expect(page).toHaveURL(agencySelection);
    return linkAuthenticatorApp(page);
  });

  await test.step("the password alone is no longer enough; trust this device", async () => {
    await signOut(page);
    await signInWithPassword(page, email);
    await expectSecondFactorStep(page);
    // The flow names nobody for an authenticator app; the portal remembers whom it signed in.
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    await page.getByLabel("Trust this device for 30 days").check();
    await page.getByLabel("Authentication code").fill(await nextCode());
    await page.getByRole("button", { name: "Use your authenticator app" }).click();
    await expect(page).toHaveURL(agencySelection);
  });

  await test.step("without JavaScript the second factor names the account too", async () => {
    const context = await browser.newContext({
      baseURL: mainStack.portalUrl,
      javaScriptEnabled: false,
    });
    const noScript = await context.newPage();
    await signInWithPassword(noScript, email);
    await expectSecondFactorStep(noScript);
    await expect(noScript.getByText(`Signed in as ${email}`)).toBeVisible();
    await context.close();
  });

  await test.step("on the trusted device the password is enough", async () => {
    await signOut(page);
    await signInWithPassword(page, email);
    await expect(page).toHaveURL(agencySelection);
  });

  await test.step("once trust is removed the second factor is asked again", async () => {
    await page.goto("/en/settings");
    const devices = page.getByRole("region", { name: "Manage trusted devices" });
    await devices.getByRole("button", { name: "Stop trusting this device" }).click();
    await expect(devices.getByText("You have no trusted devices.")).toBeVisible();
    await signOut(page);
    await signInWithPassword(page, email);
    await expectSecondFactorStep(page);
  });
});

test("a backup code signs in once", async ({ page }) => {
  const email = uniqueEmail("backup");
  await createPerson(email);
  const backupCode = await test.step("sign in and confirm new backup codes", async () => {
    await signInWithPassword(page, email);
    await expect(page).toHaveURL(agencySelection);
    await page.goto("/en/settings");
    const card = page.getByRole("region", { name: "Backup codes" });
    await card.getByRole("button", { name: "Generate new backup recovery codes" }).click();
    const codes = card.getByRole("list").getByRole("listitem");
    await expect(codes).toHaveCount(12);
    const code = ((await codes.first().textContent()) ?? "").trim();
    await card.getByRole("button", { name: "Confirm backup recovery codes" }).click();
    await expect(page.getByText(saved)).toBeVisible();
    return code;
  });

  for (const attempt of ["first", "second"]) {
    await test.step(`the ${attempt} use of the code`, async () => {
      await signOut(page);
      await signInWithPassword(page, email);
      await expectSecondFactorStep(page);
      await page.getByLabel("Backup recovery code").fill(backupCode);
      await page.getByRole("button", { name: "Use backup recovery code" }).click();
      if (attempt === "first") {
        await expect(page).toHaveURL(agencySelection);
      } else {
        await expect(page.getByRole("alert").first()).toContainText("has already been used");
      }
    });
  }
});

test("a code by e-mail works as the fallback second factor", async ({ page }) => {
  const email = uniqueEmail("code-mfa");
  await createPerson(email, { verified: true });
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(agencySelection);

  await page.goto("/en/settings");
  const card = page.getByRole("region", { name: "Codes by email or text message" });
  await card.getByRole("button", { name: `Use codes sent to ${email} as a second factor` }).click();

  // The new factor is asked for at once, then at every sign-in.
  let previous: string | undefined;
  for (const moment of ["right away", "at the next sign-in"]) {
    await test.step(`a code by e-mail ${moment}`, async () => {
      if (moment === "at the next sign-in") {
        await signOut(page);
        await signInWithPassword(page, email);
      }
      await expectSecondFactorStep(page);
      await page.getByRole("button", { name: `Send code to ${email}` }).click();
      previous = await latestCode(email, "login_code_valid", mainStack, previous);
      await page.getByLabel("Sign-in code").fill(previous);
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(
        page.getByRole("heading", { level: 1, name: "Two-factor authentication" }),
      ).toBeHidden();
    });
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
  // Waits out the privileged window (timedPrivilegedSeconds) besides the journey itself.
  test.setTimeout(scaled(30_000) + timedPrivilegedSeconds * 1000);
  const email = uniqueEmail("privileged");
  const changed = "Another-Strong-Secret-8";
  await createPerson(email, {}, timedStack);

  await test.step("sign in, then let the sign-in grow older than the privileged window", async () => {
    await signInWithPassword(page, email, strongPassword, timedStack);
    await expect(page).toHaveURL(`${timedStack.demoUrl}/agency-selection`);
    // Waited for at the agency product: no portal page (and no idle timer) is open meanwhile.
    await waitUntilSessionOlderThan(page, timedPrivilegedSeconds, timedStack);
  });

  await test.step("saving a new password asks to confirm the action", async () => {
    await page.goto(`${timedStack.portalUrl}/en/settings`);
    const card = page.getByRole("region", { name: "Change password" });
    await card.getByLabel("New password", { exact: true }).fill(changed);
    await card.getByLabel("Confirm new password").fill(changed);
    await card.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Confirm action" })).toBeVisible();
  });

  await test.step("after confirming with the password, the change is saved", async () => {
    await page.getByLabel("Password", { exact: true }).fill(strongPassword);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Profile settings" })).toBeVisible();
    const again = page.getByRole("region", { name: "Change password" });
    await again.getByLabel("New password", { exact: true }).fill(changed);
    await again.getByLabel("Confirm new password").fill(changed);
    await again.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText(saved)).toBeVisible();
  });
});

// One journey per theme; both locales are checked on each screen it reaches (the journey, not
// the locale, is what costs time).
for (const theme of ["light", "dark"]) {
  test(`axe finds no violation on settings and the second-factor step, en and es, ${theme}`, async ({
    page,
    context,
  }) => {
    // Two sign-ins and four axe runs: about 15 s on an idle 2-core machine.
    test.setTimeout(scaled(60_000));
    await context.addCookies([{ name: "theme", value: theme, url: mainStack.portalUrl }]);
    const email = uniqueEmail("axe-2fa");
    await createPerson(email);
    await test.step("sign in and link an authenticator app", async () => {
      await signInWithPassword(page, email);
      await expect(page).toHaveURL(agencySelection);
      await linkAuthenticatorApp(page);
    });

    for (const locale of ["en", "es"]) {
      await test.step(`axe on settings, ${locale}`, async () => {
        await page.goto(`/${locale}/settings`);
        await expect(page.locator("html")).toHaveAttribute("lang", locale);
        expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
      });
    }

    await test.step("sign in again up to the second-factor step", async () => {
      await signOut(page);
      await signInWithPassword(page, email);
      await expectSecondFactorStep(page);
    });
    const secondFactorUrl = page.url();
    for (const locale of ["en", "es"]) {
      await test.step(`axe on the second-factor step, ${locale}`, async () => {
        await page.goto(secondFactorUrl.replace("/en/", `/${locale}/`));
        await expect(page.locator("html")).toHaveAttribute("lang", locale);
        expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
      });
    }
  });
}
