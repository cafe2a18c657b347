// Screenshots of the main screens for a before/after comparison of a visual change (not part of
// `npm test`). It starts nothing: point it at a running stack (`npm start`, or one on other ports).
//
//   npx node e2e/screenshots.ts --out <folder> [--portal http://localhost:3000]
//     [--demo http://localhost:4000] [--identity-admin http://127.0.0.1:4434]
//     [--oauth2-public http://localhost:4444] [--oauth2-admin http://127.0.0.1:4445]
//
// Writes <viewport>-<theme>-<screen>.png (device scale 1) for sign-in, sign-in with errors,
// settings (signed in, full page) and the single-sign-on journey (agency product home → portal
// sign-in → consent of a third-party client → agency product signed in), at 1280×800 and 390×844
// in the light theme, and sign-in and settings in the dark theme at both sizes.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium, expect, type Browser, type Page } from "@playwright/test";

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    portal: { type: "string", default: "http://localhost:3000" },
    demo: { type: "string", default: "http://localhost:4000" },
    "identity-admin": { type: "string", default: "http://127.0.0.1:4434" },
    "oauth2-public": { type: "string", default: "http://localhost:4444" },
    "oauth2-admin": { type: "string", default: "http://127.0.0.1:4445" },
  },
});
if (!values.out) throw new Error("--out <folder> is required");
const out = values.out;
const portal = values.portal.replace(/\/$/, "");
const demo = values.demo.replace(/\/$/, "");
const password = "Correct-Horse-Battery-9";

const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
type Viewport = keyof typeof viewports;
type Theme = "light" | "dark";

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function createPerson(): Promise<string> {
  const email = `screens-${randomUUID().slice(0, 8)}@example.org`;
  await post(`${values["identity-admin"]}/admin/identities`, {
    schema_id: "default",
    traits: { email },
    credentials: { password: { config: { password } } },
    verifiable_addresses: [{ value: email, via: "email", verified: true, status: "completed" }],
  });
  return email;
}

async function newPage(browser: Browser, viewport: Viewport, theme: Theme): Promise<Page> {
  const context = await browser.newContext({
    viewport: viewports[viewport],
    deviceScaleFactor: 1,
    colorScheme: theme,
  });
  await context.addCookies([{ name: "theme", value: theme, url: portal }]);
  return context.newPage();
}

async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  // Web fonts settle before the picture (the e2e tsconfig has no DOM types); no fixed wait.
  await page.evaluate("document.fonts.ready.then(() => true)");
  await page.screenshot({ path: join(out, `${name}.png`), fullPage, animations: "disabled" });
  console.log(`  ${name}.png`);
}

async function fillPassword(page: Page, email: string, secret = password): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(secret);
  await page.getByRole("button", { name: "Sign in with password" }).click();
}

async function signInScreens(browser: Browser, viewport: Viewport, theme: Theme): Promise<void> {
  const prefix = `${viewport}-${theme}`;
  const page = await newPage(browser, viewport, theme);
  await page.goto(`${portal}/en/login`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await shoot(page, `${prefix}-sign-in`);
  await fillPassword(page, "nobody@example.org", "Wrong-password-1");
  await expect(page.getByRole("alert").first()).toBeVisible();
  await shoot(page, `${prefix}-sign-in-errors`);

  await page.context().clearCookies({ name: /^(?!theme$)/ });
  const email = await createPerson();
  await page.goto(`${portal}/en/login`);
  await fillPassword(page, email);
  await page.waitForURL((url) => !url.pathname.endsWith("/login"));
  await page.goto(`${portal}/en/settings`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await shoot(page, `${prefix}-settings`, true);
  await page.context().close();
}

async function singleSignOnScreens(browser: Browser, viewport: Viewport): Promise<void> {
  const prefix = `${viewport}-light`;
  const page = await newPage(browser, viewport, "light");
  const email = await createPerson();
  await page.goto(demo);
  await shoot(page, `${prefix}-sso-1-agency-home`);
  await page.getByRole("link", { name: "Sign in" }).first().click();
  await page.waitForURL(/\/en\/login\?/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await shoot(page, `${prefix}-sso-2-portal-sign-in`);

  // The agency product is a first-party client (no consent): a third-party one shows the page.
  const redirectUri = `${demo}/partner/callback`;
  const client = await post(`${values["oauth2-admin"]}/admin/clients`, {
    client_name: "Partner reporting tool",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code"],
    response_types: ["code"],
    scope: "openid email",
    token_endpoint_auth_method: "none",
  });
  const consentPage = await newPage(browser, viewport, "light");
  const authorize = new URL(`${values["oauth2-public"]}/oauth2/auth`);
  authorize.search = new URLSearchParams({
    client_id: String(client.client_id),
    response_type: "code",
    scope: "openid email",
    redirect_uri: redirectUri,
    state: randomBytes(16).toString("base64url"),
    code_challenge: createHash("sha256")
      .update(randomBytes(32).toString("base64url"))
      .digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  await consentPage.goto(authorize.toString());
  await fillPassword(consentPage, email);
  await consentPage.waitForURL(/\/en\/consent\?/);
  await expect(consentPage.getByRole("button", { name: "Allow" })).toBeVisible();
  await shoot(consentPage, `${prefix}-sso-3-consent`);
  await consentPage.context().close();

  await fillPassword(page, email);
  await page.waitForURL((url) => url.origin === demo);
  await expect(page.getByText(email).first()).toBeVisible();
  await shoot(page, `${prefix}-sso-4-agency-signed-in`);
  await page.context().close();
}

mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  for (const viewport of ["desktop", "phone"] as const) {
    for (const theme of ["light", "dark"] as const) await signInScreens(browser, viewport, theme);
    await singleSignOnScreens(browser, viewport);
  }
} finally {
  await browser.close();
}
