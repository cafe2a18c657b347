import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { mainStack } from "./stacks.ts";
import {
  createPerson,
  latestCode,
  signInWithPassword,
  signOutOfAgencyProduct,
  uniqueEmail,
  signOutAtPortal,
  whoamiStatus,
} from "./support.ts";
import { addVirtualAuthenticator } from "./virtual-authenticator.ts";

const { demoUrl, portalUrl } = mainStack;
const agencySelection = `${demoUrl}/agency-selection`;

async function expectSignedInAtAgencyProduct(page: Page, email: string): Promise<void> {
  await expect(page).toHaveURL(agencySelection);
  await expect(page.getByTestId("signed-in-email")).toHaveText(email);
}

/** WCAG 2.2 AA and axe's best practices, as e2e/accessibility.spec.ts checks every screen. */
async function expectNoAxeViolation(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  expect(results.violations, screen).toEqual([]);
}

/** The session's authentication methods, as the identity service reports them. */
async function sessionMethods(page: Page): Promise<{ aal: string; methods: string[] }> {
  const response = await page.request.get(`${portalUrl}/api/kratos/sessions/whoami`, {
    headers: { accept: "application/json" },
  });
  expect(response.status()).toBe(200);
  const session = (await response.json()) as {
    authenticator_assurance_level: string;
    authentication_methods: { method: string }[];
  };
  return {
    aal: session.authenticator_assurance_level,
    methods: session.authentication_methods.map((entry) => entry.method),
  };
}

test("sign up with a passkey from the agency product, sign out, and sign in with it through the SSO loop", async ({
  page,
}) => {
  const authenticator = await addVirtualAuthenticator(page);
  const email = uniqueEmail("passkey-signup");

  await page.goto(demoUrl);
  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await page
    .getByRole("link", { name: "Create account" })
    .or(page.getByRole("button", { name: "Create account" }))
    .click();
  await page.getByRole("link", { name: "Yes, I have no account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Confirm email").fill(email);
  await page.getByRole("button", { name: "Sign up with passkey" }).click();

  // No password was asked; the new account proves its address, then goes back signed in.
  await expect(page.getByRole("heading", { level: 1, name: "Verify your account" })).toBeVisible();
  expect(await authenticator.credentialCount()).toBe(1);
  await page
    .getByLabel("Verification code")
    .fill(await latestCode(email, "verification_code_valid"));
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("link", { name: "Continue" }).click();
  await expectSignedInAtAgencyProduct(page, email);
  expect((await sessionMethods(page)).methods).toEqual(["passkey"]);

  await signOutOfAgencyProduct(page, true);
  expect(await whoamiStatus(page)).toBe(401);

  // Back through the agency product: the sign-in page offers the passkey in the e-mail field's
  // autofill (conditional mediation) once the person reaches the field; the virtual
  // authenticator picks it at once, as a person picking it from the list.
  await page.goto(demoUrl);
  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await page.getByLabel("Email").click();
  await expectSignedInAtAgencyProduct(page, email);
  expect(await sessionMethods(page)).toEqual({ aal: "aal1", methods: ["passkey"] });

  // A browser without passkey autofill: the button signs in.
  await signOutOfAgencyProduct(page, true);
  await page.addInitScript(
    "PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);",
  );
  await page.goto(demoUrl);
  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await page.getByRole("button", { name: "Sign in with passkey" }).click();
  await expectSignedInAtAgencyProduct(page, email);
  expect(await sessionMethods(page)).toEqual({ aal: "aal1", methods: ["passkey"] });
});

test("a passkey and a security key added in settings; password + security key signs in at aal2; both removed", async ({
  page,
}) => {
  const authenticator = await addVirtualAuthenticator(page);
  const email = uniqueEmail("passkey-settings");
  await createPerson(email, { verified: true });
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(agencySelection);

  await page.goto(`${portalUrl}/en/settings`);
  const passkeys = page.getByRole("region", { name: "Passkeys" });
  await expect(passkeys.getByText("You have no passkeys yet.")).toBeVisible();
  await passkeys.getByRole("button", { name: "Add passkey" }).click();
  await expect(page.getByText("Your changes have been saved!")).toBeVisible();
  const removePasskey = passkeys.getByRole("button", { name: /^Remove passkey / });
  await expect(removePasskey).toHaveCount(1);

  const keys = page.getByRole("region", { name: "Security keys" });
  await expect(keys.getByText("You have no security keys yet.")).toBeVisible();
  await keys.getByLabel("Name of the security key").fill("Blue key");
  await keys.getByRole("button", { name: "Add security key" }).click();
  await expect(keys.getByRole("button", { name: 'Remove security key "Blue key"' })).toBeVisible();
  await expect(keys.getByText(/^Added on /)).toBeVisible();
  await expectNoAxeViolation(page, "settings with a passkey and a security key, en light");
  await page.context().addCookies([{ name: "theme", value: "dark", url: portalUrl }]);
  await page.goto(`${portalUrl}/es/settings`);
  await expect(page.getByRole("region", { name: "Llaves de seguridad" })).toBeVisible();
  await expectNoAxeViolation(page, "settings with a passkey and a security key, es dark");

  // Password, then the security key, which the second-factor step offers first.
  // The passkey would answer the sign-in page's autofill at once, as soon as the sign-out lands
  // there: no touch until the second step.
  await authenticator.answersByItself(false);
  await signOutAtPortal(page);
  await signInWithPassword(page, email);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Sign in");
  await authenticator.answersByItself(true);
  const chooser = page.getByRole("main").getByRole("button");
  await expect(chooser.first()).toHaveAccessibleName("Sign in with a hardware key");
  await expectNoAxeViolation(page, "second factor with a security key, en dark");
  await chooser.first().click();
  await expect(page).toHaveURL(agencySelection);
  const session = await sessionMethods(page);
  expect(session.aal).toBe("aal2");
  expect(session.methods).toEqual(["password", "webauthn"]);

  // Both removed (the password stays: neither was the last way in).
  await page.goto(`${portalUrl}/en/settings`);
  await keys.getByRole("button", { name: 'Remove security key "Blue key"' }).click();
  await keys
    .getByRole("group", { name: "Are you sure?" })
    .getByRole("button", { name: 'Remove security key "Blue key"' })
    .click();
  await expect(keys.getByText("You have no security keys yet.")).toBeVisible();
  await removePasskey.click();
  await passkeys
    .getByRole("group", { name: "Are you sure?" })
    .getByRole("button", { name: /^Remove passkey / })
    .click();
  await expect(passkeys.getByText("You have no passkeys yet.")).toBeVisible();
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the passkey button says it needs JavaScript, and the password still signs in", async ({
    page,
  }) => {
    const email = uniqueEmail("passkey-nojs");
    await createPerson(email, { verified: true });
    await page.goto(`${portalUrl}/en/login`);
    await expect(page.getByRole("button", { name: "Sign in with passkey" })).toBeDisabled();
    await expect(
      page.getByText("Passkeys and security keys need JavaScript.", { exact: false }),
    ).toBeVisible();
    await signInWithPassword(page, email);
    await expect(page).toHaveURL(agencySelection);
  });
});
