import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { portalUrl } from "./playwright.config.ts";
import { createPerson, signInWithPassword, uniqueEmail } from "./support.ts";

for (const javaScriptEnabled of [false, true]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("'sign out everywhere else' asks first and Cancel changes nothing", async ({
      page,
      browser,
    }) => {
      const email = uniqueEmail(javaScriptEnabled ? "confirm-js" : "confirm-nojs");
      await createPerson(email, { verified: true });
      // Another device: a second browser signed in as the same person.
      const elsewhere = await browser.newContext();
      const other = await elsewhere.newPage();
      await signInWithPassword(other, email);
      await other.waitForURL((url) => !url.pathname.endsWith("/login"));
      const otherStatus = async () =>
        (await other.request.get(`${portalUrl}/api/kratos/sessions/whoami`)).status();

      await signInWithPassword(page, email);
      await page.waitForURL((url) => !url.pathname.endsWith("/login"));
      await page.goto("/en/settings");
      const card = page.getByRole("region", { name: "Active sessions" });
      await card.getByRole("button", { name: "Sign out everywhere else" }).click();

      // Without JavaScript the post came back as the asking state; with it, the button opened it.
      await expect(page).toHaveURL(/[?&]confirm=revoke_others(&|#|$)/);
      const asking = card.getByRole("group", { name: "Are you sure?" });
      await expect(asking).toContainText("Every other device where you are signed in (1)");
      expect(await otherStatus()).toBe(200);
      // axe runs in the page, so only with JavaScript.
      if (javaScriptEnabled) {
        await expect(asking.getByRole("heading", { name: "Are you sure?" })).toBeFocused();
        expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
      }

      await asking.getByRole("link", { name: "Cancel" }).click();
      await expect(page).not.toHaveURL(/confirm=/);
      await expect(asking).toBeHidden();
      expect(await otherStatus()).toBe(200);

      await card.getByRole("button", { name: "Sign out everywhere else" }).click();
      await asking.getByRole("button", { name: "Sign out everywhere else" }).click();
      await expect(card.getByText("Other sessions signed out: 1.")).toBeVisible();
      await expect(page).not.toHaveURL(/confirm=/);
      expect(await otherStatus()).toBe(401);
      await elsewhere.close();
    });
  });
}
