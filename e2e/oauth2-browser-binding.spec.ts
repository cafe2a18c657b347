import { createHash, randomBytes } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { mainStack } from "./stacks.ts";
import {
  createPerson,
  registerPartnerClient,
  signInWithPassword,
  strongPassword,
  uniqueEmail,
  type PartnerClient,
} from "./support.ts";

// Issue 12 §1, the account takeover through single sign-on: the attacker starts a sign-in at an
// OAuth2 client, sends the victim the portal link with the challenge, the victim answers it on the
// genuine page, and the attacker's browser finishes the sign-in. Attacker and victim are two
// browser contexts of one test; the attack must fail at the login step and at the consent step.

const { demoUrl, oauth2AdminUrl, oauth2PublicUrl } = mainStack;
const agencySelection = `${demoUrl}/agency-selection`;

async function enterPassword(page: Page, email: string): Promise<void> {
  await expect(page).toHaveURL(/\/en\/login\?/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(strongPassword);
  await page.getByRole("button", { name: "Sign in with password" }).click();
}

/** Two separate browsers (contexts), closed again when `use` ends. */
async function withTwoBrowsers(
  browser: Browser,
  javaScriptEnabled: boolean,
  use: (attacker: Page, victim: Page) => Promise<void>,
): Promise<void> {
  const attackerContext = await browser.newContext({ javaScriptEnabled });
  const victimContext = await browser.newContext({ javaScriptEnabled });
  try {
    await use(await attackerContext.newPage(), await victimContext.newPage());
  } finally {
    await attackerContext.close();
    await victimContext.close();
  }
}

/** Waits until the OAuth2 service has sent the browser to `callback` with `request_forbidden`. */
async function expectForbiddenAt(page: Page, callback: string): Promise<void> {
  await page.waitForURL(
    (url) =>
      `${url.origin}${url.pathname}` === callback &&
      url.searchParams.get("error") === "request_forbidden" &&
      !url.searchParams.has("code"),
    { timeout: 20_000 },
  );
}

/** Resolves when the browser heads back to the OAuth2 service, i.e. once its answer is in. */
function backAtOAuth2Service(page: Page) {
  return page.waitForRequest(
    (request) => request.url().startsWith(`${oauth2PublicUrl}/oauth2/auth`),
    {
      timeout: 20_000,
    },
  );
}

/**
 * oidc-provider's own way back, which resumed with whatever answer the challenge had; returns the
 * status of the page the attacker's browser ends at.
 */
async function resumeByChallenge(page: Page, challenge: string): Promise<number | undefined> {
  const response = await page.goto(`${oauth2PublicUrl}/oauth2/auth/${challenge}`);
  return response?.status();
}

/** Accepts a login request through the OAuth2 admin API; returns where the browser goes next. */
async function acceptLoginAs(challenge: string, subject: string): Promise<string> {
  const response = await fetch(
    `${oauth2AdminUrl}/admin/oauth2/auth/requests/login/accept?login_challenge=${challenge}`,
    {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ subject }),
    },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { redirect_to: string }).redirect_to;
}

async function answerPartnerCallback(page: Page, client: PartnerClient): Promise<void> {
  await page.route(`${client.redirectUri}**`, (route) =>
    route.fulfill({ contentType: "text/html", body: "<title>Partner</title><h1>Partner</h1>" }),
  );
}

async function startPartnerSignIn(page: Page, client: PartnerClient): Promise<void> {
  const verifier = randomBytes(32).toString("base64url");
  const url = new URL(`${oauth2PublicUrl}/oauth2/auth`);
  url.search = new URLSearchParams({
    client_id: client.clientId,
    response_type: "code",
    scope: "openid email",
    redirect_uri: client.redirectUri,
    state: randomBytes(16).toString("base64url"),
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  await answerPartnerCallback(page, client);
  await page.goto(url.toString());
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test("a login answered in the victim's browser signs neither browser in", async ({
      browser,
    }) => {
      const victimEmail = uniqueEmail(javaScriptEnabled ? "bind-login-js" : "bind-login-nojs");
      await createPerson(victimEmail, { verified: true });
      await withTwoBrowsers(browser, javaScriptEnabled, async (attacker, victim) => {
        // The attacker starts at the agency product and stops at the portal's login page.
        await attacker.goto(demoUrl);
        await attacker.getByRole("link", { name: "Sign in" }).click();
        await expect(attacker).toHaveURL(/\/en\/login\?login_challenge=/);
        const link = attacker.url();
        const challenge = new URL(link).searchParams.get("login_challenge") ?? "";

        // The victim opens the link and signs in on the genuine page.
        await victim.goto(link);
        const answered = backAtOAuth2Service(victim);
        await enterPassword(victim, victimEmail);
        await answered;

        // The attacker's browser cannot finish the sign-in the victim answered: it is not even
        // taken on to the consent step with the victim's login.
        const resumed: string[] = [];
        attacker.on("request", (request) => {
          if (request.url().includes("consent_challenge=")) resumed.push(request.url());
        });
        const status = await resumeByChallenge(attacker, challenge);
        expect(resumed).toEqual([]);
        await attacker.goto(agencySelection);
        await expect(attacker.getByText(victimEmail)).toHaveCount(0);
        await expect(attacker.getByText("You are not signed in.")).toBeVisible();
        expect(status).toBe(400);

        // Nor does the victim's browser: it lacks the attacker's CSRF cookie.
        await expectForbiddenAt(victim, `${demoUrl}/auth/callback`);
        await victim.goto(agencySelection);
        await expect(victim.getByText("You are not signed in.")).toBeVisible();
      });
    });

    test("a consent answered in the victim's browser grants nothing", async ({ browser }) => {
      const client = await registerPartnerClient();
      const victimEmail = uniqueEmail(javaScriptEnabled ? "bind-consent-js" : "bind-consent-nojs");
      const victimId = await createPerson(victimEmail, { verified: true });
      await withTwoBrowsers(browser, javaScriptEnabled, async (attacker, victim) => {
        // The attacker's browser holds a consent request for the victim: the login step is
        // answered for the victim here directly, as the login-step hole above allowed.
        await startPartnerSignIn(attacker, client);
        await expect(attacker).toHaveURL(/\/en\/login\?login_challenge=/);
        const loginChallenge = new URL(attacker.url()).searchParams.get("login_challenge") ?? "";
        await attacker.goto(await acceptLoginAs(loginChallenge, victimId));
        await expect(attacker).toHaveURL(/\/en\/consent\?consent_challenge=/);
        const link = attacker.url();
        const challenge = new URL(link).searchParams.get("consent_challenge") ?? "";

        // The victim, signed in at the portal, opens the consent link and allows.
        await signInWithPassword(victim, victimEmail);
        await expect(victim).toHaveURL(agencySelection);
        await answerPartnerCallback(victim, client);
        await victim.goto(link);
        const answered = backAtOAuth2Service(victim);
        await victim.getByRole("button", { name: "Allow" }).click();
        await answered;

        // The attacker's browser gets no code for the consent the victim gave.
        const codes: string[] = [];
        attacker.on("request", (request) => {
          const url = new URL(request.url());
          const code = url.searchParams.get("code");
          if (`${url.origin}${url.pathname}` === client.redirectUri && code) codes.push(code);
        });
        const status = await resumeByChallenge(attacker, challenge);
        expect(codes).toEqual([]);
        expect(status).toBe(400);

        // Nor does the victim's browser: it lacks the attacker's CSRF cookie.
        await expectForbiddenAt(victim, client.redirectUri);
      });
    });
  });
}
