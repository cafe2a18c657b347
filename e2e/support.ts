import { randomUUID } from "node:crypto";
import { identityAdminUrl } from "./playwright.config.ts";

export const strongPassword = "Correct-Horse-Battery-9";

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.org`;
}

/** Creates a person with a password directly through the identity service's admin API. */
export async function createPerson(email: string, password = strongPassword): Promise<string> {
  const response = await fetch(`${identityAdminUrl}/admin/identities`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      schema_id: "default",
      traits: { email },
      credentials: { password: { config: { password } } },
    }),
  });
  if (response.status !== 201) {
    throw new Error(`creating ${email} answered ${response.status}: ${await response.text()}`);
  }
  const body = (await response.json()) as { id: string };
  return body.id;
}
