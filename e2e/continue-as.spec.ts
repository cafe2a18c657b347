import { createHash, randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { mainStack } from "./stacks.ts";
import { scaled } from "./timing.ts";
import {
  createPerson,
  registerPartnerClient,
  signInWithPassword,
  strongPassword,
  uniqueEmail,
  waitUntilSessionOlderThan,
  whoamiStatus,
} from "./support.ts";

// Issue 14: one password from anywhere. Signed in at the portal, the agency product's sign-in
// asks no password again ("Continue as"); a relying party that wants a new sign-in still gets one.

const { demoUrl, oauth2PublicUrl, portalUrl } = mainStack;
const agencySelection = `${demoUrl}/agency-selection`;

async function signInAtPortal(page: Page, email: string): Promise<void> {
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(agencySelection);
}

/** A third-party client's authorization request, with extra parameters (prompt, max_age…). */
async function startPartnerSignIn(page: Page, extra: Record<string, string>): Promise<void> {
  const { clientId, redirectUri } = await registerPartnerClient();
  const url = new URL(`${oauth2PublicUrl}/oauth2/auth`);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    scope: "openid email",
    redirect_uri: redirectUri,
    state: randomBytes(16).toString("base64url"),
    code_challenge: createHash("sha256").update(randomBytes(32)).digest("base64url"),
    code_challenge_method: "S256",
    ...extra,
  }).toString();
  await page.goto(url.toString());
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("signed in at the portal, the agency product's sign-in continues without the password", async ({
      page,
      context,
    }) => {
      const email = uniqueEmail(javaScriptEnabled ? "continue-js" : "continue-nojs");
      await createPerson(email, { verified: true });
      await signInAtPortal(page, email);

      // The agency product's first run: its own session is gone, the portal's is not.
      await context.clearCookies({ domain: "localhost", name: "demo_session" });
      await page.goto(agencySelection);
      await page.getByRole("link", { name: "Sign in" }).click();

      await expect(
        page.getByRole("heading", { level: 1, name: "Choose an account" }),
      ).toBeVisible();
      await expect(page.getByText("Sign in to continue to Agency product.")).toBeVisible();
      await expect(page.getByLabel("Password", { exact: true })).toHaveCount(0);
      await page.getByRole("button", { name: `Continue as ${email}` }).click();

      await expect(page).toHaveURL(agencySelection);
      await expect(page.getByTestId("signed-in-email")).toHaveText(email);
    });

    test("the header's sign-out ends the portal session", async ({ page }) => {
      const email = uniqueEmail(javaScriptEnabled ? "header-out-js" : "header-out-nojs");
      await createPerson(email, { verified: true });
      await page.goto(`${portalUrl}/en/login`);
      await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toHaveCount(
        0,
      );
      await signInAtPortal(page, email);

      await page.goto(`${portalUrl}/en/settings`);
      await expect(page.getByRole("heading", { level: 1, name: "Profile settings" })).toBeVisible();
      await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();

      await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
      await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toHaveCount(
        0,
      );
      expect(await whoamiStatus(page)).toBe(401);
    });
  });
}

test("another site's link to the portal's sign-out is asked first and signs nobody out", async ({
  page,
  context,
}) => {
  // Four axe runs on the question.
  test.setTimeout(scaled(90_000));
  const email = uniqueEmail("logout-cross-site");
  await createPerson(email, { verified: true });
  await signInAtPortal(page, email);

  // The agency product is another origin (Sec-Fetch-Site: same-site), as any other site would be.
  await page.evaluate(`window.location.href = ${JSON.stringify(`${portalUrl}/en/logout`)}`);

  await expect(page.getByText("Do you want to sign out of Agency Sign-In?")).toBeVisible();
  expect(await whoamiStatus(page)).toBe(200);
  // Typed addresses are asked too: the same page in each language and theme.
  await expectNoViolations(page, context);
  await expect(page.getByText("Do you want to sign out of Agency Sign-In?")).toBeVisible();
  await page.getByRole("button", { name: "Yes, sign out" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  expect(await whoamiStatus(page)).toBe(401);
});

test("after 'Continue', a max_age the portal sign-in exceeds still asks for the password", async ({
  page,
  context,
}) => {
  // Remembered, the OAuth2 service dated the login from the click and skipped such a request.
  const maxAgeSeconds = 3;
  const email = uniqueEmail("continue-max-age");
  await createPerson(email, { verified: true });
  await signInAtPortal(page, email);
  await waitUntilSessionOlderThan(page, maxAgeSeconds);
  await context.clearCookies({ domain: "localhost", name: "demo_session" });
  await page.goto(agencySelection);
  await page.getByRole("link", { name: "Sign in" }).click();
  await page.getByRole("button", { name: `Continue as ${email}` }).click();
  await expect(page.getByTestId("signed-in-email")).toHaveText(email);

  await startPartnerSignIn(page, { max_age: String(maxAgeSeconds) });

  await expect(page.getByRole("heading", { level: 1, name: "Confirm action" })).toBeVisible();
  await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
});

test("'Use another account' signs out and signs someone else in to the same application", async ({
  page,
  context,
}) => {
  const first = uniqueEmail("continue-first");
  const second = uniqueEmail("continue-second");
  await createPerson(first, { verified: true });
  await createPerson(second, { verified: true });
  await signInAtPortal(page, first);
  await context.clearCookies({ domain: "localhost", name: "demo_session" });
  await page.goto(agencySelection);
  await page.getByRole("link", { name: "Sign in" }).click();

  await page.getByRole("button", { name: "Use another account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await expect(page.getByText("Sign in to continue to Agency product.")).toBeVisible();
  await page.getByLabel("Email").fill(second);
  await page.getByLabel("Password", { exact: true }).fill(strongPassword);
  await page.getByRole("button", { name: "Sign in with password" }).click();

  await expect(page).toHaveURL(agencySelection);
  await expect(page.getByTestId("signed-in-email")).toHaveText(second);
});

test("prompt=login still asks for the password, naming the account", async ({ page }) => {
  const email = uniqueEmail("continue-prompt");
  await createPerson(email, { verified: true });
  await signInAtPortal(page, email);

  await startPartnerSignIn(page, { prompt: "login" });

  await expect(page.getByRole("heading", { level: 1, name: "Confirm action" })).toBeVisible();
  await expect(page.getByText(`Confirm it's you, ${email}.`)).toBeVisible();
  await expect(page.getByRole("button", { name: /Continue as/ })).toHaveCount(0);
  await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
});

test("axe finds no violation on 'Continue as' and the named 'Confirm action' in en and es, light and dark", async ({
  page,
  context,
}) => {
  // Eight axe runs over two screens.
  test.setTimeout(scaled(90_000));
  const email = uniqueEmail("continue-axe");
  await createPerson(email, { verified: true });
  await signInAtPortal(page, email);
  await context.clearCookies({ domain: "localhost", name: "demo_session" });
  await page.goto(agencySelection);
  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose an account" })).toBeVisible();
  // The page has a session, so the header's sign-out is checked too.
  await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toBeVisible();
  await expectNoViolations(page, context);

  await startPartnerSignIn(page, { prompt: "login" });
  await expect(page.getByRole("heading", { level: 1, name: "Confirm action" })).toBeVisible();
  await expectNoViolations(page, context);
});

async function expectNoViolations(page: Page, context: BrowserContext): Promise<void> {
  const pageUrl = new URL(page.url());
  // English last: the portal's locale cookie then sends the next sign-in to /en/.
  for (const locale of ["es", "en"]) {
    for (const theme of ["light", "dark"]) {
      await context.addCookies([{ name: "theme", value: theme, url: portalUrl }]);
      const localized = new URL(pageUrl);
      localized.pathname = localized.pathname.replace(/^\/(en|es)\//, `/${locale}/`);
      await page.goto(localized.toString());
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations, `${localized.pathname} ${theme}`).toEqual([]);
    }
  }
  await context.addCookies([{ name: "theme", value: "light", url: portalUrl }]);
}
