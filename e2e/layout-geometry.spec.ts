import { expect, test, type Page } from "@playwright/test";
import { createPerson, signInWithPassword, uniqueEmail } from "./support.ts";

// Browser-side measurements as source text: the e2e project has no DOM types.

/** Controls whose box meets the theme toggle's box, with the page scrolled to the top and bottom. */
const controlsUnderToggle = `(() => {
  const toggle = document.querySelector('form[action="/theme"] button');
  if (!toggle) return ["no theme toggle"];
  const hits = [];
  for (const top of [0, document.documentElement.scrollHeight]) {
    window.scrollTo(0, top);
    const t = toggle.getBoundingClientRect();
    for (const el of document.querySelectorAll("a[href], button, input, select, textarea, summary")) {
      if (el === toggle || el.type === "hidden") continue;
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue;
      if (r.left < t.right && r.right > t.left && r.top < t.bottom && r.bottom > t.top) {
        hits.push(el.outerHTML.slice(0, 80));
      }
    }
  }
  window.scrollTo(0, 0);
  return hits;
})()`;

/** How much taller the page's card is than its content (0 when it is sized to it). */
const cardSlack = `(() => {
  const card = document.querySelector("main > *");
  const stretched = card.getBoundingClientRect().height;
  card.style.alignSelf = "flex-start";
  const natural = card.getBoundingClientRect().height;
  card.style.alignSelf = "";
  return stretched - natural;
})()`;

/** The card's distance from the top of the main area, less the main area's own padding. */
const cardOffset = `(() => {
  const main = document.querySelector("main");
  const padding = parseFloat(getComputedStyle(main).paddingTop);
  return document.querySelector("main > *").getBoundingClientRect().top - main.getBoundingClientRect().top - padding;
})()`;

const overflow = `document.documentElement.scrollWidth - document.documentElement.clientWidth`;

async function expectNothingCovered(page: Page, where: string): Promise<void> {
  expect(await page.evaluate<string[]>(controlsUnderToggle), `${where}: under the toggle`).toEqual(
    [],
  );
  expect(await page.evaluate<number>(overflow), `${where}: sideways scrolling`).toBeLessThanOrEqual(
    0,
  );
}

for (const width of [320, 390, 1280]) {
  test(`at ${width} px the theme toggle covers no control and the phone field has room`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    for (const path of ["/en/login", "/en/registration", "/es/recovery"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNothingCovered(page, path);
    }

    const email = uniqueEmail(`layout-${width}`);
    await createPerson(email, { verified: true });
    await signInWithPassword(page, email);
    await page.waitForURL((url) => !url.pathname.endsWith("/login"));
    await page.goto("/en/settings");
    const phone = page.getByRole("region", { name: "Profile" }).getByLabel("Phone number");
    await expect(phone).toBeVisible();
    await expectNothingCovered(page, "settings");
    // Room for a whole number (about 15 digits at 16 px).
    await expect
      .poll(async () => (await phone.boundingBox())?.width ?? 0, { message: "phone field width" })
      .toBeGreaterThanOrEqual(180);
  });
}

for (const width of [320, 1280]) {
  test(`at ${width} px cards are as tall as their content, at the top`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    for (const path of [
      "/en/login",
      "/en/verification",
      "/en/recovery",
      "/en/error?id=3b1f8a52-0c4e-4d7a-9a51-7f2c6d0e9b14",
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await page.evaluate<number>(cardSlack), `${path}: empty space in the card`).toBe(0);
      expect(await page.evaluate<number>(cardOffset), `${path}: card at the top`).toBe(0);
    }
  });
}

test("with reduced motion nothing spins or fades", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/en/login");
  // The spinner's classes, as the navigation overlay renders it.
  const [spin, fade] = await page.evaluate<[string, string]>(`(() => {
    const spinner = document.createElement("span");
    spinner.className = "inline-block size-5 animate-spin motion-reduce:animate-none";
    const fading = document.createElement("div");
    fading.className = "opacity-0 [animation:fade-in_150ms_ease-in_200ms_forwards]";
    document.body.append(spinner, fading);
    const result = [getComputedStyle(spinner).animationName, getComputedStyle(fading).animationDuration];
    spinner.remove();
    fading.remove();
    return result;
  })()`);
  expect(spin).toBe("none");
  expect(parseFloat(fade), "seconds of fading").toBeLessThan(0.001);
});
