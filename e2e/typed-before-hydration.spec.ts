import { expect, test } from "@playwright/test";
import { createPerson, strongPassword, uniqueEmail } from "./support.ts";
import { mainStack } from "./stacks.ts";

// Issue 20: the sign-in page fetches its scripts only once it has loaded (ui/deferred-scripts.ts),
// so on a slow link a person often types before the page hydrates. What they typed must survive
// hydration and be what the page's own (JavaScript) submission sends, and the first interaction
// before hydration still starts the fingerprint the identity service expects with it.

test("what is typed before the sign-in page hydrates is kept and signs in", async ({
  page,
  context,
}) => {
  const email = uniqueEmail("typed-early");
  await createPerson(email);
  // Hold the entry module until the form is filled: the page cannot hydrate before.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto("/en/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(strongPassword);
  expect(await page.evaluate("'__reactRouterDataRouter' in window")).toBe(false);

  release();
  // Enabled once hydrated and the passkey code is there.
  await expect(page.getByRole("button", { name: "Sign in with passkey" })).toBeEnabled();
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue(strongPassword);
  // The field had the focus when the page hydrated: the fingerprint starts without a new event.
  await expect
    .poll(async () => (await context.cookies()).some((c) => c.name === "x-session-entropy"))
    .toBe(true);
  await page.getByRole("button", { name: "Sign in with password" }).click();
  await expect(page).toHaveURL(`${mainStack.demoUrl}/agency-selection`);
});
