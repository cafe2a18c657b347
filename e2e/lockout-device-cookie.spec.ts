import { expect, test, type Browser, type Page } from "@playwright/test";
import { demoUrl, portalUrl } from "./playwright.config.ts";
import {
  createPerson,
  signInWithPassword,
  strongPassword,
  uniqueEmail,
  signOutAtPortal,
} from "./support.ts";
import { scaled } from "./timing.ts";

// Issue 12 §4: ten wrong passwords from anywhere used to lock the real owner out for 15 minutes.
// A browser that signed in to the account before keeps a budget of its own (device cookie).

const tooMany = /Too many attempts\. Try again in/;

async function freshPage(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ baseURL: portalUrl, javaScriptEnabled });
  return context.newPage();
}

for (const javaScriptEnabled of [true, false]) {
  test(`strangers' wrong passwords do not lock the owner's known browser out (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
  }) => {
    test.setTimeout(scaled(90_000));
    const email = uniqueEmail(javaScriptEnabled ? "lockout-js" : "lockout-nojs");
    await createPerson(email);

    // The owner signs in once on this browser, then signs out.
    const owner = await freshPage(browser, javaScriptEnabled);
    await signInWithPassword(owner, email);
    await expect(owner).toHaveURL(`${demoUrl}/agency-selection`);
    await signOutAtPortal(owner, portalUrl);
    await expect(owner.getByLabel("Email")).toBeVisible();

    // A stranger elsewhere uses up the account's budget for unknown browsers.
    const stranger = await freshPage(browser, javaScriptEnabled);
    for (let attempt = 1; attempt <= 10; attempt++) {
      await signInWithPassword(stranger, email, `Wrong-guess-${attempt}-xyz`);
      await expect(stranger.getByRole("alert").first()).toContainText(
        "The provided credentials are invalid",
      );
    }
    await signInWithPassword(stranger, email, strongPassword);
    await expect(stranger.getByRole("alert").first()).toContainText(tooMany);

    // The owner's browser still signs in.
    await signInWithPassword(owner, email);
    await expect(owner).toHaveURL(`${demoUrl}/agency-selection`);
  });
}
