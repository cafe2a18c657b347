import { randomUUID } from "node:crypto";
import type { Credential } from "../identity/identity.ts";
import type { Executor } from "./schema.ts";

// An identity's credential rows and their identifiers (the lookup table for sign-in).

/** Inserts one credential with a row per identifier. */
export async function insertCredential(
  db: Executor,
  identityId: string,
  credential: Credential,
): Promise<void> {
  await db
    .insertInto("identity_credentials")
    .values({
      id: credential.id,
      identity_id: identityId,
      type: credential.type,
      config: JSON.stringify(credential.config),
      version: credential.version,
      created_at: credential.createdAt.toISOString(),
      updated_at: credential.updatedAt.toISOString(),
    })
    .execute();
  for (const identifier of credential.identifiers) {
    await db
      .insertInto("identity_credential_identifiers")
      .values({
        id: randomUUID(),
        credential_id: credential.id,
        identity_id: identityId,
        type: credential.type,
        identifier,
        created_at: credential.createdAt.toISOString(),
      })
      .execute();
  }
}

/** Rewrites one credential's config (e.g. a backup code marked used) without touching the rest. */
export async function updateCredentialConfig(
  db: Executor,
  credentialId: string,
  config: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await db
    .updateTable("identity_credentials")
    .set({ config: JSON.stringify(config), updated_at: now.toISOString() })
    .where("id", "=", credentialId)
    .execute();
}
