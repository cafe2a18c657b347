import { randomUUID } from "node:crypto";
import { expect } from "@playwright/test";
import { identityAdminUrl, mailboxUrl } from "./playwright.config.ts";

export const strongPassword = "Correct-Horse-Battery-9";

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.org`;
}

/** Creates a person with a password directly through the identity service's admin API. */
export async function createPerson(
  email: string,
  password = strongPassword,
  moreTraits: Record<string, string> = {},
): Promise<string> {
  const response = await fetch(`${identityAdminUrl}/admin/identities`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      schema_id: "default",
      traits: { email, ...moreTraits },
      credentials: { password: { config: { password } } },
    }),
  });
  if (response.status !== 201) {
    throw new Error(`creating ${email} answered ${response.status}: ${await response.text()}`);
  }
  const body = (await response.json()) as { id: string };
  return body.id;
}

type MailboxMessage = { code: string | null; template_type: string; created_at: string };

/**
 * The newest one-time code the mailbox holds for an address and template, once the courier has
 * delivered it (delivery is asynchronous, so this waits for it).
 */
export async function latestCode(address: string, template: string): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(
      async () => {
        const response = await fetch(
          `${mailboxUrl}/messages.json?to=${encodeURIComponent(address)}`,
        );
        const messages = (await response.json()) as MailboxMessage[];
        code = messages.find((message) => message.template_type === template)?.code ?? null;
        return code;
      },
      { message: `a ${template} code for ${address}` },
    )
    .not.toBeNull();
  return code ?? "";
}
