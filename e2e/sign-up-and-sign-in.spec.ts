import { expect, test, type Page } from "@playwright/test";
import { demoUrl } from "./playwright.config.ts";
import {
  createPerson,
  latestCode,
  signOutOfAgencyProduct,
  strongPassword,
  uniqueEmail,
  signOutAtPortal,
} from "./support.ts";

async function fillSignUp(page: Page, email: string, password = strongPassword): Promise<void> {
  await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Confirm email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm password").fill(password);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in with password" }).click();
}

async function expectAgencySelection(page: Page, email: string): Promise<void> {
  await expect(page).toHaveURL(`${demoUrl}/agency-selection`);
  await expect(page.getByRole("heading", { level: 1, name: "Select your agency" })).toBeVisible();
  await expect(page.getByTestId("signed-in-email")).toHaveText(email);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("sign up from the agency product, verify, come back signed in, sign out, sign in again", async ({
      page,
    }) => {
      const email = uniqueEmail(javaScriptEnabled ? "signup-js" : "signup-nojs");
      await page.goto(demoUrl);
      await page.getByRole("link", { name: "Sign in" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
      await page
        .getByRole("link", { name: "Create account" })
        .or(page.getByRole("button", { name: "Create account" }))
        .click();
      await page.getByRole("link", { name: "Yes, I have no account" }).click();
      await fillSignUp(page, email);
      // A new account proves its e-mail address first, then goes back to the agency product.
      await expect(
        page.getByRole("heading", { level: 1, name: "Verify your account" }),
      ).toBeVisible();
      await page
        .getByLabel("Verification code")
        .fill(await latestCode(email, "verification_code_valid"));
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByRole("link", { name: "Continue" }).click();
      await expectAgencySelection(page, email);

      await signOutOfAgencyProduct(page, javaScriptEnabled);

      await page.getByRole("link", { name: "Sign in" }).click();
      await signIn(page, email, strongPassword);
      await expectAgencySelection(page, email);
    });

    test("a wrong password shows the credentials message and keeps the e-mail", async ({
      page,
    }) => {
      const email = uniqueEmail("wrong-password");
      await createPerson(email);
      await page.goto("/en/login");
      await signIn(page, email, "Not-The-Password-1");
      await expect(page.getByRole("alert")).toContainText(
        "The provided credentials are invalid, check for spelling mistakes in your email address or password.",
      );
      await expect(page.getByLabel("Email")).toHaveValue(email);
      await expect(page.getByLabel("Password")).toHaveValue("");
    });
  });
}

test("remember me pre-fills the e-mail on the next visit", async ({ page }) => {
  const email = uniqueEmail("remember");
  await createPerson(email);
  await page.goto("/en/login");
  await page.getByLabel("Remember me").check();
  await signIn(page, email, strongPassword);
  await expect(page).toHaveURL(`${demoUrl}/agency-selection`);
  await signOutAtPortal(page);
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Remember me")).toBeChecked();
});

test("the create-account question opened by the server stays open once scripts run", async ({
  page,
}) => {
  // As after a click before the page's scripts ran, or a shared link: the server renders the
  // question open, and the scripts make it a modal. They used to close it first, and that close
  // navigated the question away (fresh-clone run 12).
  await page.goto("/en/login");
  await expect(page).toHaveURL(/[?&]flow=/);
  const closingNavigations: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/en/login.data" && !url.searchParams.has("confirm")) {
      closingNavigations.push(url.search);
    }
  });
  await page.goto(`${page.url()}&confirm=create-account`);
  const dialog = page.getByRole("dialog", { name: "Create a new account?" });
  // Modal once the scripts have upgraded it.
  await expect(page.locator("dialog:modal")).toHaveCount(1);
  await dialog.getByRole("link", { name: "Yes, I have no account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
  expect(closingNavigations).toEqual([]);
});

test("'create account' asks first; No warns about an existing account", async ({ page }) => {
  await page.goto("/en/login");
  await page
    .getByRole("link", { name: "Create account" })
    .or(page.getByRole("button", { name: "Create account" }))
    .click();
  const dialog = page.getByRole("dialog", { name: "Create a new account?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("link", { name: "No, I may have one" }).click();
  await expect(page).toHaveURL(/\/en\/registration.*#nodna$/);
  await expect(
    page
      .getByRole("alert")
      .or(page.getByRole("status"))
      .filter({ hasText: "You may already have an account." }),
  ).toBeVisible();
});
