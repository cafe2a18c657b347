import { join } from "node:path";
import { expect, test as base } from "@playwright/test";
import { proxyAddress, startScaleOutStack, type ScaleOutStack } from "./scale-out-stack.ts";
import {
  latestCode,
  linkAuthenticatorApp,
  signOutOfAgencyProduct,
  strongPassword,
  uniqueEmail,
} from "./support.ts";
import { scaled } from "./timing.ts";

// Issue 18: the portal keeps no state of its own, so any number of instances can serve one person
// behind a load balancer without sticky sessions. Two instances behind a proxy that sends each
// request to the other one: every journey crosses them at every step.
const test = base.extend<{ stack: ScaleOutStack }, { workerStack: ScaleOutStack }>({
  // One identity server, two portals and the agency product per worker, on ports of the worker's
  // slot (parallelIndex), so that repeats of this test in two workers do not meet.
  workerStack: [
    // Playwright reads a fixture's dependencies from this pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const dataRoot = process.env.E2E_DATA_ROOT;
      if (!dataRoot) throw new Error("E2E_DATA_ROOT is set by playwright.config.ts");
      const dataDir = join(dataRoot, `scale-out-${workerInfo.workerIndex}`);
      const stack = await startScaleOutStack(dataDir, workerInfo.parallelIndex);
      await use(stack);
      await stack.stop();
    },
    // Started as the other stacks are at the start of the suite, and about as long.
    { scope: "worker", timeout: scaled(120_000) },
  ],
  stack: async ({ workerStack }, use) => use(workerStack),
  baseURL: async ({ workerStack }, use) => use(workerStack.portalUrl),
});

// Without JavaScript every step is a whole page or a form post: each of them through the proxy.
test.use({ javaScriptEnabled: false });

test("two portal instances behind a round-robin proxy: sign up, verify, authenticator app, sign in, single sign-on, password change", async ({
  page,
  stack,
}) => {
  // About 30 page loads and form posts through the proxy.
  test.setTimeout(scaled(60_000));
  const { demoUrl, portalUrl, proxy } = stack;
  const email = uniqueEmail("scale-out");
  const agencySelection = `${demoUrl}/agency-selection`;

  await test.step("sign up from the agency product and verify the e-mail address", async () => {
    await page.goto(demoUrl);
    await page.getByRole("link", { name: "Sign in" }).click();
    await expect(page).toHaveURL(new RegExp(`^${portalUrl}/`));
    await page.getByRole("link", { name: "Create account" }).click();
    await page.getByRole("link", { name: "Yes, I have no account" }).click();
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Confirm email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(strongPassword);
    await page.getByLabel("Confirm password").fill(strongPassword);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: "Verify your account" }),
    ).toBeVisible();
    await page
      .getByLabel("Verification code")
      .fill(await latestCode(email, "verification_code_valid", stack));
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("link", { name: "Continue" }).click();
    await expect(page).toHaveURL(agencySelection);
    await expect(page.getByTestId("signed-in-email")).toHaveText(email);
  });

  const nextCode = await test.step("link an authenticator app in settings", async () => {
    return linkAuthenticatorApp(page);
  });

  await test.step("sign out, then sign in with the password and the authenticator app", async () => {
    await page.goto(demoUrl);
    await signOutOfAgencyProduct(page, false);
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(strongPassword);
    await page.getByRole("button", { name: "Sign in with password" }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: "Two-factor authentication" }),
    ).toBeVisible();
    // The portal's own signed cookie names the account (PORTAL_COOKIE_SECRET, the same on both
    // instances). The reload renders the page on the other instance than before, so one of the
    // two renders reads the cookie on the instance that did not sign it.
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    await page.reload();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
    await page.getByLabel("Authentication code").fill(await nextCode());
    await page.getByRole("button", { name: "Use your authenticator app" }).click();
    await expect(page).toHaveURL(agencySelection);
    await expect(page.getByTestId("signed-in-email")).toHaveText(email);
  });

  await test.step("change the password in settings, signed in with both factors", async () => {
    await page.goto("/en/settings");
    const card = page.getByRole("region", { name: "Change password" });
    const changed = "Another-Strong-Secret-7";
    await card.getByLabel("New password", { exact: true }).fill(changed);
    await card.getByLabel("Confirm new password").fill(changed);
    await card.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Your changes have been saved!")).toBeVisible();
  });

  await test.step("the instances shared the journey, request by request", () => {
    const upstreams = proxy.requests.map((request) => request.upstream);
    expect(proxy.counts().every((count) => count > 0)).toBe(true);
    expect(upstreams.slice(1).every((upstream, index) => upstream !== upstreams[index])).toBe(true);
    // Forms posted to each instance, so each of them continued flows the other one began.
    const posts = proxy.requests.filter((request) => request.method === "POST");
    expect(new Set(posts.map((request) => request.upstream))).toEqual(new Set([0, 1]));
  });

  await test.step("the identity service saw the browser's address, not the proxy's", async () => {
    const identities = (await (
      await fetch(
        `${stack.identityAdminUrl}/admin/identities?credentials_identifier=${encodeURIComponent(email)}`,
      )
    ).json()) as { id: string }[];
    const sessions = (await (
      await fetch(`${stack.identityAdminUrl}/admin/identities/${identities[0]?.id}/sessions`)
    ).json()) as { devices: { ip_address: string }[] }[];
    const addresses = sessions.flatMap((session) => session.devices.map((d) => d.ip_address));
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses).not.toContain(proxyAddress);
    expect(new Set(addresses)).toEqual(new Set(["127.0.0.1"]));
  });
});
