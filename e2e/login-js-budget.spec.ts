import { expect, test } from "@playwright/test";
import { budgetBytes, gzipSize, scriptsOf } from "../portal/scripts/measure-js.ts";
import { mainStack } from "./stacks.ts";

const { portalUrl } = mainStack;

function total(files: Iterable<string>): number {
  let bytes = 0;
  for (const file of files) bytes += gzipSize(file);
  return bytes;
}

/**
 * DESIGN §6: at most 120,000 B of gzip (level 9) JavaScript for /en/login, with the passkey
 * nodes our server shows by default: what its server-rendered HTML references, and everything
 * Chromium fetches until the page has hydrated and gone idle. What waits for the person (the
 * fingerprint and the passkey ceremonies, ui/first-interaction.ts) loads when they reach the
 * form. `npm run bench` reports the same figures.
 */
test("/en/login with its passkey nodes stays within the JavaScript budget until someone uses it", async ({
  page,
  context,
}) => {
  const fetched = new Set<string>();
  page.on("response", (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.endsWith(".js") && response.ok()) fetched.add(pathname);
  });
  const response = await page.goto(`${portalUrl}/en/login`);
  const referenced = scriptsOf((await response?.text()) ?? "");
  await expect(page.getByRole("button", { name: "Sign in with passkey" })).toBeEnabled();
  // Past the browser's first idle time, when the page loads what it loads on its own.
  await page.evaluate(
    "new Promise((resolve) => requestIdleCallback(() => resolve(null), { timeout: 5000 }))",
  );
  await page.waitForLoadState("networkidle");

  expect(referenced.size).toBeGreaterThan(0);
  const atLoad = [...fetched];
  expect(total(referenced), `SSR-referenced: ${[...referenced].join(", ")}`).toBeLessThanOrEqual(
    budgetBytes,
  );
  expect(total(atLoad), `fetched: ${atLoad.join(", ")}`).toBeLessThanOrEqual(budgetBytes);
  expect(atLoad.filter((path) => /session-lifecycle|ceremonies/.test(path))).toEqual([]);

  // The person reaches the e-mail field: the passkey autofill and the fingerprint start.
  await page.getByLabel("Email").click();
  await expect
    .poll(async () => (await context.cookies()).some((c) => c.name === "x-session-entropy"))
    .toBe(true);
  await expect
    .poll(() => [...fetched].filter((path) => /session-lifecycle|ceremonies/.test(path)).length)
    .toBe(2);
  test.info().annotations.push({
    type: "JavaScript gzip",
    description: `until used ${total(atLoad)} B, once used ${total(fetched)} B`,
  });
});
