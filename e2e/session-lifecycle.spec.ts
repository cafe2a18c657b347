import AxeBuilder from "@axe-core/playwright";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { totpPeriodSeconds } from "./authenticator-app.ts";
import { mainStack, timedStack } from "./stacks.ts";
import { scaled } from "./timing.ts";
import {
  authenticatorApp,
  createPerson,
  signInWithPassword,
  strongPassword,
  uniqueEmail,
  signOutAtPortal,
} from "./support.ts";

// The timed stack signs out after PORTAL_IDLE_TIMEOUT_MS without activity and prompts
// PORTAL_IDLE_PROMPT_MS before that. The idle tests do not wait for those: they install
// Playwright's clock in the browser and jump it forward (the page's timers fire as they would
// after the real wait), so they take seconds instead of two timeouts each.
const timed = timedStack.portalUrl;
const idleTimeoutMs = Number(timedStack.env.PORTAL_IDLE_TIMEOUT_MS);
const promptBeforeMs = Number(timedStack.env.PORTAL_IDLE_PROMPT_MS);
const quietUntilPrompt = idleTimeoutMs - promptBeforeMs;
const whoami = (portalUrl: string) => `${portalUrl}/api/kratos/sessions/whoami`;

/** Axe with the prompt open, and its backdrop opaque: nothing of the person's page shows around it. */
async function expectAccessiblePrompt(page: Page): Promise<void> {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  const backdrop = await page.evaluate<string>(
    `getComputedStyle(document.querySelector("dialog[open]"), "::backdrop").backgroundColor`,
  );
  expect(backdrop).toMatch(/^(rgb|oklch|lab|color)\(/);
  expect(backdrop, "no transparency").not.toMatch(/\/|rgba|transparent/);
}

const promptOf = (page: Page) => page.getByRole("dialog", { name: "Are you still there?" });
const expiredOf = (page: Page) => page.getByRole("dialog", { name: "Your session has expired" });

/** Signs a new person in on the timed stack and opens the settings page, which needs a session. */
async function signedInOnSettings(page: Page, prefix: string): Promise<void> {
  const email = uniqueEmail(prefix);
  await createPerson(email, {}, timedStack);
  await signInWithPassword(page, email, strongPassword, timedStack);
  await expect(page).toHaveURL(`${timedStack.demoUrl}/agency-selection`);
  await openSettings(page);
}

async function openSettings(page: Page, portalUrl = timed): Promise<void> {
  await page.goto(`${portalUrl}/en/settings`);
  await expect(page.getByRole("heading", { level: 1, name: "Profile settings" })).toBeVisible();
}

async function sessionStatus(page: Page, portalUrl = timed): Promise<number> {
  return (await page.request.get(whoami(portalUrl))).status();
}

async function entropyCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((cookie) => cookie.name === "x-session-entropy")?.value;
}

test.describe("idle timeout", () => {
  test.beforeAll(() => {
    expect(idleTimeoutMs, "the timed stack sets PORTAL_IDLE_TIMEOUT_MS").toBeGreaterThan(0);
    expect(promptBeforeMs, "the timed stack sets PORTAL_IDLE_PROMPT_MS").toBeGreaterThan(0);
  });

  test("the prompt counts down; Continue keeps the session; at the timeout it ends and OK leads to sign in", async ({
    page,
  }) => {
    await page.clock.install();
    await signedInOnSettings(page, "idle");
    const prompt = promptOf(page);
    await expect(prompt).toBeHidden();
    await page.clock.fastForward(quietUntilPrompt);
    await expect(prompt).toBeVisible();
    await expectAccessiblePrompt(page);
    const timer = prompt.getByRole("timer");
    await expect(timer).toHaveText(/^\d\d:[0-5]\d$/);
    const shown = await timer.textContent();
    await page.clock.fastForward(1_000);
    await expect(timer).not.toHaveText(shown ?? "");
    // A modal: focus is inside it, and the keyboard alone answers it.
    await expect(prompt.getByRole("button", { name: "Continue" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(prompt).toBeHidden();
    expect(await sessionStatus(page)).toBe(200);

    // No more activity: the prompt again, then the end, with the session revoked at the server.
    await page.clock.fastForward(quietUntilPrompt);
    await expect(prompt).toBeVisible();
    const expired = expiredOf(page);
    await page.clock.fastForward(promptBeforeMs);
    await expect(expired).toBeVisible();
    await expect(prompt).toBeHidden();
    await expect.poll(() => sessionStatus(page)).toBe(401);
    await expired.getByRole("button", { name: "OK" }).click();
    await expect(page).toHaveURL(/\/en\/login(\?|$)/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();

    await page.goto(`${timed}/en/settings`);
    await expect(page).toHaveURL(/\/en\/login(\?|$)/);
  });

  test("Sign out in the prompt signs out through the logout route", async ({ page }) => {
    await page.clock.install();
    await signedInOnSettings(page, "idle-logout");
    await page.clock.fastForward(quietUntilPrompt);
    await expect(promptOf(page)).toBeVisible();
    await promptOf(page).getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
    expect(await sessionStatus(page)).toBe(401);
  });

  test("two tabs stay in step: Continue in one closes the prompt in both, and both end together", async ({
    context,
  }) => {
    // One clock for the whole context: both tabs see the same time.
    await context.clock.install();
    const first = await context.newPage();
    await signedInOnSettings(first, "idle-tabs");
    const second = await context.newPage();
    await openSettings(second);

    await context.clock.fastForward(quietUntilPrompt);
    await expect(promptOf(first)).toBeVisible();
    await expect(promptOf(second)).toBeVisible();
    await promptOf(first).getByRole("button", { name: "Continue" }).click();
    await expect(promptOf(first)).toBeHidden();
    await expect(promptOf(second)).toBeHidden();

    await context.clock.fastForward(quietUntilPrompt);
    await expect(promptOf(first)).toBeVisible();
    await context.clock.fastForward(promptBeforeMs);
    await expect(expiredOf(first)).toBeVisible();
    await expect(expiredOf(second)).toBeVisible();
    await expect.poll(() => sessionStatus(first)).toBe(401);
  });
});

test("a signed-out visitor's sign-in page loads no idle timer; a signed-in page does", async ({
  page,
  context,
}) => {
  // The prompt in Spanish and dark is checked with axe here too (English, light: the test above).
  await context.addCookies([{ name: "theme", value: "dark", url: timed }]);
  await page.clock.install();
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(`${timed}/en/login`);
  // A signed-out page computes the fingerprint once the person reaches the form: by then the
  // page has settled what it loads.
  await page.getByLabel("Email").click();
  await expect.poll(() => entropyCookie(context)).toMatch(/^[0-9a-f]{16}$/);
  expect(scripts.filter((path) => path.includes("idle-timeout"))).toEqual([]);

  await signedInOnSettings(page, "idle-lazy");
  await page.goto(`${timed}/es/settings`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.clock.fastForward(quietUntilPrompt);
  await expect(page.getByRole("dialog", { name: "¿Sigue ahí?" })).toBeVisible();
  // One chunk, loaded again by the second page.
  expect(new Set(scripts.filter((path) => path.includes("idle-timeout")))).toHaveProperty(
    "size",
    1,
  );
  await expectAccessiblePrompt(page);
});

test("the fingerprint is stable and reaches the identity service: the trusted device is this device", async ({
  page,
  context,
  browser,
}) => {
  // Three authenticator-app codes: late in a 30-second window the third waits for the next one.
  test.setTimeout(scaled(30_000) + totpPeriodSeconds * 1000);
  const portal = mainStack.portalUrl;
  const email = uniqueEmail("fingerprint");
  await createPerson(email);
  await page.goto(`${portal}/en/login`);
  await page.getByLabel("Email").click();
  await expect.poll(() => entropyCookie(context)).toMatch(/^[0-9a-f]{16}$/);
  const fingerprint = await entropyCookie(context);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  expect(await entropyCookie(context)).toBe(fingerprint);

  // Link an authenticator app, so that signing in again can trust this browser.
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(`${mainStack.demoUrl}/agency-selection`);
  await openSettings(page, portal);
  const card = page.getByRole("region", { name: "Authenticator app" });
  const nextCode = authenticatorApp((await card.locator("#totp-secret-key").textContent()) ?? "");
  await card.getByLabel("Verify code").fill(await nextCode());
  await card.getByRole("button", { name: "Save" }).click();
  await expect(card.getByRole("button", { name: "Remove authenticator app" })).toBeVisible();

  // The second factor, trusting the device: the portal's server passes the fingerprint from the
  // cookie as x-session-entropy, and the identity service records it with the device.
  await signOutAtPortal(page, portal);
  await signInWithPassword(page, email);
  await page.getByLabel("Trust this device for 30 days").check();
  await page.getByLabel("Authentication code").fill(await nextCode());
  await page.getByRole("button", { name: "Use your authenticator app" }).click();
  await expect(page).toHaveURL(`${mainStack.demoUrl}/agency-selection`);

  // Settings marks the device this browser holds the trusted-device cookie of.
  await openSettings(page, portal);
  const trustedDevices = (of: Page) =>
    of
      .getByRole("region", { name: "Manage trusted devices" })
      .getByRole("list", { name: "Trusted devices" })
      .getByRole("listitem");
  const devices = trustedDevices(page);
  await expect(devices).toHaveCount(1);
  await expect(devices.getByText("This device", { exact: true })).toBeVisible();

  // The cookie decides, not the fingerprint: with another fingerprint it is still this device...
  await context.addCookies([{ name: "x-session-entropy", value: "ffffffffffffffff", url: portal }]);
  await openSettings(page, portal);
  await expect(devices).toHaveCount(1);
  await expect(devices.getByText("This device", { exact: true })).toBeVisible();

  // ...and a second browser with the same fingerprint, signed in without trusting itself, is not
  // it (both browsers were marked when the fingerprint decided).
  const twinContext = await browser.newContext();
  const twin = await twinContext.newPage();
  await twin.goto(`${portal}/en/login`);
  await twin.getByLabel("Email").click();
  await expect.poll(() => entropyCookie(twinContext)).toBe(fingerprint);
  await signInWithPassword(twin, email);
  await twin.getByLabel("Authentication code").fill(await nextCode());
  await twin.getByRole("button", { name: "Use your authenticator app" }).click();
  await expect(twin).toHaveURL(`${mainStack.demoUrl}/agency-selection`);
  await openSettings(twin, portal);
  await expect(trustedDevices(twin)).toHaveCount(1);
  await expect(trustedDevices(twin).getByText("This device", { exact: true })).toBeHidden();
  await twinContext.close();
});
