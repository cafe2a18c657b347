import { expect, test } from "@playwright/test";
import { budgetBytes, gzipSize, scriptsOf } from "../portal/scripts/measure-js.ts";
import { createPerson, signInWithPassword, strongPassword, uniqueEmail } from "./support.ts";

function total(files: Iterable<string>): number {
  let bytes = 0;
  for (const file of files) bytes += gzipSize(file);
  return bytes;
}

/**
 * Issue 19: /en/settings references at most DESIGN §6's 120,000 B of gzip (level 9) JavaScript
 * in its server-rendered HTML, like /en/login. Its cards' code loads beside the hydration
 * (routes/settings/cards/lazy-card.tsx): until it arrives a card keeps its server HTML, in
 * place, with what the person typed into it, and then works as before.
 */
test("/en/settings references its cards' code from no script of its HTML, and a card typed into before its code arrived keeps the text", async ({
  page,
}) => {
  const email = uniqueEmail("settings-budget");
  await createPerson(email, { verified: true });
  await signInWithPassword(page, email);
  await page.waitForURL((url) => !url.pathname.endsWith("/login"));

  // The cards' code (one chunk) waits until the person has typed into the password card.
  let requested!: () => void;
  const cardRequested = new Promise<void>((resolve) => (requested = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/all-cards-[^/]+\.js$/, async (route) => {
    requested();
    await released;
    await route.continue();
  });
  const fetched = new Set<string>();
  page.on("response", (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.endsWith(".js") && response.ok()) fetched.add(pathname);
  });

  const response = await page.goto("/en/settings");
  const html = (await response?.text()) ?? "";
  // Every card is in place in the HTML (a plain form without JavaScript), none sent after the
  // rest, hidden until a script moves it in.
  expect(html).toContain('id="settings-backup-codes"');
  expect(html).not.toMatch(/<div hidden id="S:/);
  const referenced = scriptsOf(html);
  expect(referenced.size).toBeGreaterThan(0);
  expect(total(referenced), `SSR-referenced: ${[...referenced].join(", ")}`).toBeLessThanOrEqual(
    budgetBytes,
  );
  expect([...referenced].filter((path) => /-cards?-/.test(path))).toEqual([]);

  // The page hydrates and asks for the card's code; the card is still the server's HTML.
  await cardRequested;
  const card = page.getByRole("region", { name: "Change password" });
  const before = await card.boundingBox();
  await card.getByLabel("New password", { exact: true }).fill(strongPassword);
  release();

  // Its code arrived and React took over the card's fields (it marks the elements it owns): the
  // password is still there, the card kept its size, and the card checks the confirmation as before.
  const password = card.getByLabel("New password", { exact: true });
  await expect
    .poll(() =>
      password.evaluate((input: object) =>
        Object.keys(input).some((key) => key.startsWith("__react")),
      ),
    )
    .toBe(true);
  await expect(password).toHaveValue(strongPassword);
  expect((await card.boundingBox())?.height).toBe(before?.height);
  await card.getByLabel("Confirm new password").fill("something else");
  await card.getByLabel("Confirm new password").blur();
  await expect(card.getByText("Passwords must match.")).toBeVisible();

  test.info().annotations.push({
    type: "JavaScript gzip",
    description: `SSR-referenced ${total(referenced)} B (${referenced.size} files), fetched so far ${total(fetched)} B (${fetched.size} files)`,
  });
});
