import { expect, test, type Page } from "@playwright/test";
import { identityAdminUrl } from "./playwright.config.ts";
import { createPerson, strongPassword, uniqueEmail } from "./support.ts";

const messages = {
  required: "This field is required.",
  invalidEmail: "Email must be a valid email.",
  emailsMustMatch: "Emails must match.",
  strength:
    "Password must contain at least 12 characters, 1 uppercase, 1 lowercase, 1 number and 1 special character.",
  passwordsMustMatch: "Passwords must match.",
};

type Fields = { email: string; confirmEmail: string; password: string; confirmPassword: string };

async function fill(page: Page, fields: Fields): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(fields.email);
  await page.getByLabel("Confirm email").fill(fields.confirmEmail);
  await page.getByLabel("Password", { exact: true }).fill(fields.password);
  await page.getByLabel("Confirm password").fill(fields.confirmPassword);
}

/** The field's accessible description is where its error is announced. */
async function expectFieldError(page: Page, label: string, text: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(
    new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
  );
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`registration rules with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test.beforeEach(async ({ page }) => {
      await page.goto("/en/registration");
    });

    test("empty fields are required", async ({ page }) => {
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      for (const label of ["Email", "Confirm email", "Password", "Confirm password"]) {
        await expectFieldError(page, label, messages.required);
      }
    });

    test("a malformed e-mail, a mismatch and a weak password are each explained", async ({
      page,
    }) => {
      await fill(page, {
        email: `someone@${"a".repeat(64)}.org`,
        confirmEmail: "other@example.org",
        password: "short",
        confirmPassword: "different",
      });
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await expectFieldError(page, "Email", messages.invalidEmail);
      await expectFieldError(page, "Confirm email", messages.emailsMustMatch);
      await expectFieldError(page, "Password", messages.strength);
      await expectFieldError(page, "Confirm password", messages.passwordsMustMatch);
    });

    test("a long password without the required kinds of character is refused (spec §5, 203)", async ({
      page,
    }) => {
      // The identity service would take it; the portal's own composition rule must not.
      const email = uniqueEmail("composition");
      const password = "correcthorsebatterystaple";
      await fill(page, { email, confirmEmail: email, password, confirmPassword: password });
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await expectFieldError(page, "Password", messages.strength);
      const created = await fetch(
        `${identityAdminUrl}/admin/identities?credentials_identifier=${encodeURIComponent(email)}`,
      );
      expect(await created.json()).toEqual([]);
    });

    test("the e-mail match ignores case and surrounding spaces", async ({ page }) => {
      const email = uniqueEmail("case");
      await fill(page, {
        email: `  ${email} `,
        confirmEmail: email.toUpperCase(),
        password: strongPassword,
        confirmPassword: "mismatch",
      });
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await expectFieldError(page, "Confirm password", messages.passwordsMustMatch);
      await expect(page.getByLabel("Confirm email")).not.toHaveAttribute("aria-invalid", "true");
    });

    test("an address that already has an account is refused by the identity service", async ({
      page,
    }) => {
      const email = uniqueEmail("taken");
      await createPerson(email);
      await fill(page, {
        email,
        confirmEmail: email,
        password: strongPassword,
        confirmPassword: strongPassword,
      });
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await expect(page.getByText(/already exists|exists already/)).toBeVisible();
    });

    test("a commonly used password is refused by the identity service", async ({ page }) => {
      const email = uniqueEmail("breached");
      // On the offline breached-password list, and strong enough for the portal's own rules.
      const common = "Nick1234-rem936";
      await fill(page, { email, confirmEmail: email, password: common, confirmPassword: common });
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
      await expectFieldError(page, "Password", "appeared in a data breach");
    });
  });
}

test("messages appear live as the person types, and e-mails are lowercased", async ({ page }) => {
  await page.goto("/en/registration");
  const email = page.getByLabel("Email", { exact: true });
  await email.pressSequentially("Someone@Example");
  await expect(email).toHaveValue("someone@example");
  await email.blur();
  await expectFieldError(page, "Email", messages.invalidEmail);
  // Back at the end of what was typed, as a person clicking after the text would be; once the
  // error shows, it is checked again as the person types, and goes as soon as the address is good.
  await email.click();
  await email.press("End");
  await email.pressSequentially(".org");
  await expect(email).toHaveValue("someone@example.org");
  await expect(email).not.toHaveAttribute("aria-invalid", "true");

  // A password is judged when the person leaves it (or submits), not on every keystroke.
  const password = page.getByLabel("Password", { exact: true });
  await password.pressSequentially("abc");
  await expect(password).not.toHaveAttribute("aria-invalid", "true");
  await password.blur();
  await expectFieldError(page, "Password", messages.strength);
});

test("the password can be shown and hidden", async ({ page }) => {
  await page.goto("/en/registration");
  const password = page.getByLabel("Password", { exact: true });
  await expect(password).toHaveAttribute("type", "password");
  await expect(password).toHaveAttribute("autocomplete", "new-password");
  const toggle = page.getByRole("button", { name: "Show Password", exact: true });
  await toggle.click();
  await expect(password).toHaveAttribute("type", "text");
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
});
