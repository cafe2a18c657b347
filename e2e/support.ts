import { randomUUID } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { authenticatorApp } from "./authenticator-app.ts";
import { mainStack, type Stack } from "./stacks.ts";

export { authenticatorApp };

export const strongPassword = "Correct-Horse-Battery-9";

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.org`;
}

type PersonOptions = { password?: string; traits?: Record<string, string>; verified?: boolean };

/** Creates a person with a password directly through the identity service's admin API. */
export async function createPerson(
  email: string,
  options: PersonOptions = {},
  stack: Stack = mainStack,
): Promise<string> {
  const body: Record<string, unknown> = {
    schema_id: "default",
    traits: { email, ...options.traits },
    credentials: { password: { config: { password: options.password ?? strongPassword } } },
  };
  if (options.verified) {
    body.verifiable_addresses = [
      { value: email, via: "email", verified: true, status: "completed" },
    ];
  }
  const response = await fetch(`${stack.identityAdminUrl}/admin/identities`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) {
    throw new Error(`creating ${email} answered ${response.status}: ${await response.text()}`);
  }
  const created = (await response.json()) as { id: string };
  return created.id;
}

type MailboxMessage = { code: string | null; template_type: string; created_at: string };

/**
 * The newest one-time code the mailbox holds for an address and template, once the courier has
 * delivered it (delivery is asynchronous, so this waits for it). `other` skips a code already used.
 */
export async function latestCode(
  address: string,
  template: string,
  stack: Stack = mainStack,
  other?: string,
): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(
      async () => {
        const response = await fetch(
          `${stack.mailboxUrl}/messages.json?to=${encodeURIComponent(address)}`,
        );
        const messages = (await response.json()) as MailboxMessage[];
        code = messages.find((message) => message.template_type === template)?.code ?? null;
        return code !== null && code !== other;
      },
      { message: `a ${template} code for ${address}` },
    )
    .toBe(true);
  return code ?? "";
}

/** Signs in with a password on the portal's login page (first step only). */
export async function signInWithPassword(
  page: Page,
  email: string,
  password = strongPassword,
  stack: Stack = mainStack,
): Promise<void> {
  await page.goto(`${stack.portalUrl}/en/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in with password" }).click();
}

/**
 * Signs out of the portal by its address, as someone who typed it: a GET of /logout never signs
 * out at once, so the portal asks first (routes/logout-sign-out). Ends on the sign-in page.
 */
export async function signOutAtPortal(page: Page, portalUrl = mainStack.portalUrl): Promise<void> {
  await page.goto(`${portalUrl}/en/logout`);
  await page.getByRole("button", { name: "Yes, sign out" }).click();
  // The sign-in page renders its new flow in the same response: without JavaScript the address
  // stays /en/login (forms post to the flow's address); with it, the address names the flow.
  await expect(page).toHaveURL(/\/en\/login(?:\?|$)/);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
}

/** Links an authenticator app in settings and returns a source of fresh codes for it. */
export async function linkAuthenticatorApp(page: Page): Promise<() => Promise<string>> {
  await page.goto("/en/settings");
  const card = page.getByRole("region", { name: "Authenticator app" });
  await expect(card.getByRole("img", { name: "Authenticator app QR code" })).toBeVisible();
  const nextCode = authenticatorApp((await card.locator("#totp-secret-key").textContent()) ?? "");
  await card.getByLabel("Verify code").fill(await nextCode());
  await card.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Your changes have been saved!")).toBeVisible();
  await expect(card.getByRole("button", { name: "Remove authenticator app" })).toBeVisible();
  return nextCode;
}

/**
 * Signs out at the agency product and confirms at the portal: both sessions end. Without
 * JavaScript the OAuth2 service's last step is a page with a Continue button.
 */
export async function signOutOfAgencyProduct(
  page: Page,
  // The OAuth2 service's logout ends in redirects, as Hydra's: no form to submit without JavaScript.
  _javaScriptEnabled: boolean,
): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("button", { name: "Yes, sign out" }).click();
  await expect(page.getByText("You have signed out.")).toBeVisible();
  await expect(page.getByText("You are not signed in.")).toBeVisible();
}

type SessionAge = { id: string; authenticated_at: string };

/**
 * Waits until the browser's session is older than `seconds` by the identity service's own
 * record (authenticated_at, read through the admin API on each poll): the state a privileged
 * window depends on, rather than a sleep guessed from when the test thinks it signed in.
 */
export async function waitUntilSessionOlderThan(
  page: Page,
  seconds: number,
  stack: Stack = mainStack,
): Promise<void> {
  const whoami = await page.request.get(`${stack.portalUrl}/api/kratos/sessions/whoami`, {
    headers: { accept: "application/json" },
  });
  expect(whoami.status(), "the browser has a session").toBe(200);
  const { id } = (await whoami.json()) as SessionAge;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${stack.identityAdminUrl}/admin/sessions/${id}`);
        const session = (await response.json()) as SessionAge;
        return Date.now() - Date.parse(session.authenticated_at);
      },
      {
        message: `the session is older than ${seconds} s`,
        timeout: seconds * 1000 + 30_000,
        intervals: [250],
      },
    )
    .toBeGreaterThan(seconds * 1000 + 500);
}

/** The status whoami answers for the page's browser (its cookies), through the portal's proxy. */
export async function whoamiStatus(page: Page): Promise<number> {
  const response = await page.request.get(`${mainStack.portalUrl}/api/kratos/sessions/whoami`);
  return response.status();
}

export type PartnerClient = { clientId: string; redirectUri: string };

/** A third-party client (consent is asked) whose callback the test answers itself. */
export async function registerPartnerClient(): Promise<PartnerClient> {
  const redirectUri = `${mainStack.demoUrl}/partner/callback`;
  const response = await fetch(`${mainStack.oauth2AdminUrl}/admin/clients`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Partner reporting tool",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      scope: "openid email",
      token_endpoint_auth_method: "none",
    }),
  });
  expect(response.status).toBe(201);
  const client = (await response.json()) as { client_id: string };
  return { clientId: client.client_id, redirectUri };
}
