import { createHash, randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { mainStack } from "./stacks.ts";
import { scaled } from "./timing.ts";
import {
  createPerson,
  linkAuthenticatorApp,
  signInWithPassword,
  signOutOfAgencyProduct,
  strongPassword,
  uniqueEmail,
  signOutAtPortal,
  registerPartnerClient,
  whoamiStatus,
  type PartnerClient,
} from "./support.ts";

const { demoUrl, oauth2PublicUrl, portalUrl } = mainStack;
const agencySelection = `${demoUrl}/agency-selection`;

/** Starts the agency product's sign-in, which sends the browser to the portal with a challenge. */
async function startAtAgencyProduct(page: Page): Promise<void> {
  await page.goto(demoUrl);
  await page.getByRole("link", { name: "Sign in" }).click();
}

async function enterPassword(page: Page, email: string): Promise<void> {
  await expect(page).toHaveURL(/\/en\/login\?/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(strongPassword);
  await page.getByRole("button", { name: "Sign in with password" }).click();
}

async function expectSignedInAtAgencyProduct(page: Page, email: string): Promise<void> {
  await expect(page).toHaveURL(agencySelection);
  await expect(page.getByTestId("signed-in-email")).toHaveText(email);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("the agency product signs in through the portal, then skips the portal while remembered", async ({
      page,
      context,
    }) => {
      const email = uniqueEmail(javaScriptEnabled ? "sso-js" : "sso-nojs");
      await createPerson(email, { verified: true });

      await startAtAgencyProduct(page);
      await expect(page.getByText("Sign in to continue to Agency product.")).toBeVisible();
      await enterPassword(page, email);
      // First-party client: no consent screen.
      await expectSignedInAtAgencyProduct(page, email);

      // The agency product forgets its own session; the portal's remembered login skips the form.
      await context.clearCookies({ domain: "localhost", name: "demo_session" });
      await page.goto(agencySelection);
      await page.getByRole("link", { name: "Sign in" }).click();
      await expectSignedInAtAgencyProduct(page, email);

      // Signing out at the agency product ends both sessions.
      await signOutOfAgencyProduct(page, javaScriptEnabled);
      expect(await whoamiStatus(page)).toBe(401);
    });
  });
}

test("password and authenticator app at the portal, then back to the agency product", async ({
  page,
}) => {
  const email = uniqueEmail("sso-totp");
  await createPerson(email, { verified: true });
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(agencySelection);
  const nextCode = await linkAuthenticatorApp(page);
  await signOutAtPortal(page);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();

  await startAtAgencyProduct(page);
  await enterPassword(page, email);
  await expect(
    page.getByRole("heading", { level: 1, name: "Two-factor authentication" }),
  ).toBeVisible();
  await page.getByLabel("Authentication code").fill(await nextCode());
  await page.getByRole("button", { name: "Use your authenticator app" }).click();
  await expectSignedInAtAgencyProduct(page, email);
});

test("choosing a different login in the middle of an OAuth2 sign-in interrupts it", async ({
  page,
}) => {
  const email = uniqueEmail("sso-interrupted");
  await createPerson(email, { verified: true });
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(agencySelection);
  await linkAuthenticatorApp(page);
  await signOutAtPortal(page);

  await startAtAgencyProduct(page);
  await enterPassword(page, email);
  await expect(
    page.getByRole("heading", { level: 1, name: "Two-factor authentication" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Use a different account" }).click();
  await expect(page).toHaveURL(/\/en\/login/);
  await expect(page.getByRole("alert")).toContainText(
    "Signing in to the application was interrupted",
  );
  expect(await whoamiStatus(page)).toBe(401);
});

async function startPartnerSignIn(page: Page, client: PartnerClient): Promise<string> {
  const state = randomBytes(16).toString("base64url");
  const verifier = randomBytes(32).toString("base64url");
  const url = new URL(`${oauth2PublicUrl}/oauth2/auth`);
  url.search = new URLSearchParams({
    client_id: client.clientId,
    response_type: "code",
    scope: "openid email",
    redirect_uri: client.redirectUri,
    state,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  // The partner's callback is not part of this system: answer it here and read its query.
  await page.route(`${client.redirectUri}**`, (route) =>
    route.fulfill({ contentType: "text/html", body: "<title>Partner</title><h1>Partner</h1>" }),
  );
  await page.goto(url.toString());
  return state;
}

test("a third-party client asks for consent; allowing it returns a code", async ({ page }) => {
  const client = await registerPartnerClient();
  const email = uniqueEmail("sso-consent");
  await createPerson(email, { verified: true });

  const state = await startPartnerSignIn(page, client);
  await expect(page.getByText("Sign in to continue to Partner reporting tool.")).toBeVisible();
  await enterPassword(page, email);

  await expect(page).toHaveURL(/\/en\/consent\?/);
  await expect(page.getByText("Partner reporting tool would like to:")).toBeVisible();
  await expect(
    page.getByRole("listitem").filter({ hasText: "See your email address" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();

  await expect(page).toHaveURL(new RegExp(`^${client.redirectUri}\\?code=`));
  expect(new URL(page.url()).searchParams.get("state")).toBe(state);
});

test("denying consent returns access_denied to the third-party client", async ({ page }) => {
  const client = await registerPartnerClient();
  const email = uniqueEmail("sso-deny");
  await createPerson(email, { verified: true });

  await startPartnerSignIn(page, client);
  await enterPassword(page, email);
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page).toHaveURL(new RegExp(`^${client.redirectUri}\\?error=access_denied`));
});

test("axe finds no violation on the OAuth2 screens in en and es, light and dark", async ({
  page,
  context,
}) => {
  // Twelve axe runs over three screens.
  test.setTimeout(scaled(120_000));
  const variants = ["en", "es"].flatMap((locale) =>
    ["light", "dark"].map((theme) => ({ locale, theme })),
  );
  async function expectNoViolations(pageUrl: URL): Promise<void> {
    for (const { locale, theme } of variants) {
      await context.addCookies([{ name: "theme", value: theme, url: portalUrl }]);
      const localized = new URL(pageUrl);
      localized.pathname = localized.pathname.replace(/^\/(en|es)\//, `/${locale}/`);
      await page.goto(localized.toString());
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations, `${localized.pathname} ${theme}`).toEqual([]);
    }
    await context.addCookies([{ name: "theme", value: "light", url: portalUrl }]);
    await page.goto(pageUrl.toString());
  }

  const client = await registerPartnerClient();
  const email = uniqueEmail("sso-axe");
  await createPerson(email, { verified: true });
  await startPartnerSignIn(page, client);
  await expect(page.getByText("Sign in to continue to Partner reporting tool.")).toBeVisible();
  await expectNoViolations(new URL(page.url()));

  await enterPassword(page, email);
  await expect(page).toHaveURL(/\/en\/consent\?/);
  await expectNoViolations(new URL(page.url()));

  // The sign-out question, asked when the agency product signs out.
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page).toHaveURL(new RegExp(`^${client.redirectUri}\\?error=access_denied`));
  await startAtAgencyProduct(page);
  await expectSignedInAtAgencyProduct(page, email);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/en\/logout\?logout_challenge=/);
  await expectNoViolations(new URL(page.url()));
});
