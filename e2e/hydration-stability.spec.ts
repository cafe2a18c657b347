import { expect, test } from "@playwright/test";
import type { Page } from "@playwright/test";

// A note shown until hydration ("Passkeys … need JavaScript") used to disappear when the page
// hydrated, moving everything below it: a click aimed at "Create account" in that moment landed
// on empty space, and the dialog never opened (lost clicks in CI). The pages must not move.

/** Records every layout shift from the first paint on, as the browser reports it. */
const recordShifts = `
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__shifts.push(entry.value);
  }).observe({ type: "layout-shift", buffered: true });
`;

/** A phone's slower processor, so hydration takes as long as it does there. */
async function slowProcessor(page: Page): Promise<void> {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send("Emulation.setCPUThrottlingRate", { rate: 4 });
}

for (const [path, passkeyButton] of [
  ["/en/login", "Sign in with passkey"],
  ["/en/registration", "Sign up with passkey"],
] as const) {
  test(`${path} does not move while it hydrates`, async ({ page }) => {
    await page.addInitScript(recordShifts);
    await slowProcessor(page);
    await page.goto(path);
    // Enabled once hydrated and the passkey code is there: the last change the page makes.
    await expect(page.getByRole("button", { name: passkeyButton })).toBeEnabled();
    // The note's removal moved a line of text under most of the viewport (far above this); a
    // sub-pixel settling (1e-5, seen under load) is not a shift anyone sees or mis-clicks on.
    const shifts = await page.evaluate<number[]>("window.__shifts");
    expect(shifts.reduce((sum, shift) => sum + shift, 0)).toBeLessThan(0.001);
  });
}

test("'Create account' clicked as soon as it shows opens the question", async ({ page }) => {
  await slowProcessor(page);
  await page.goto("/en/login", { waitUntil: "commit" });
  await page.getByRole("link", { name: "Create account" }).click();
  await expect(page.getByRole("dialog", { name: "Create a new account?" })).toBeVisible();
});
