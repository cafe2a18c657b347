import type { Identity } from "../identity/identity.ts";
import {
  replaceAddresses,
  insertRecoveryAddress,
  insertVerifiableAddress,
} from "./identity-addresses.ts";
import { insertCredential } from "./identity-credentials.ts";
import type { Executor } from "./schema.ts";

// Writing an identity as a whole: insert, update, delete.

/** A unique constraint (identifier or address) already belongs to another identity. */
export class DuplicateIdentityError extends Error {
  constructor(cause: unknown) {
    super("An identity with the same identifier or address exists already", { cause });
    this.name = "DuplicateIdentityError";
  }
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed/.test(error.message);
}

function metadataColumn(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** The columns an insert and an update both write. */
function changeableColumns(identity: Identity) {
  return {
    state: identity.state,
    state_changed_at: identity.stateChangedAt?.toISOString() ?? null,
    traits: JSON.stringify(identity.traits),
    metadata_public: metadataColumn(identity.metadataPublic),
    metadata_admin: metadataColumn(identity.metadataAdmin),
    updated_at: identity.updatedAt.toISOString(),
  };
}

/** Inserts the identity with its credentials and addresses; run it inside a transaction. */
export async function insertIdentity(db: Executor, identity: Identity): Promise<void> {
  try {
    await db
      .insertInto("identities")
      .values({
        id: identity.id,
        schema_id: identity.schemaId,
        created_at: identity.createdAt.toISOString(),
        ...changeableColumns(identity),
      })
      .execute();
    for (const credential of identity.credentials) {
      await insertCredential(db, identity.id, credential);
    }
    for (const address of identity.verifiableAddresses) {
      await insertVerifiableAddress(db, identity.id, address);
    }
    for (const address of identity.recoveryAddresses) {
      await insertRecoveryAddress(db, identity.id, address);
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw new DuplicateIdentityError(error);
    throw error;
  }
}

/**
 * Writes an identity back: traits and state, credentials (rewritten whole, with their identifiers)
 * and addresses (kept by id, removed when gone, added when new). Run it inside a transaction; a
 * clash with another identity's identifier or address throws DuplicateIdentityError.
 */
export async function updateIdentity(db: Executor, identity: Identity): Promise<void> {
  try {
    await db
      .updateTable("identities")
      .set(changeableColumns(identity))
      .where("id", "=", identity.id)
      .execute();

    await db.deleteFrom("identity_credentials").where("identity_id", "=", identity.id).execute();
    for (const credential of identity.credentials) {
      await insertCredential(db, identity.id, credential);
    }

    await replaceAddresses(db, identity);
  } catch (error) {
    if (isUniqueViolation(error)) throw new DuplicateIdentityError(error);
    throw error;
  }
}

/** Deletes the identity; credentials, addresses and sessions go with it (foreign-key cascade). */
export async function deleteIdentity(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom("identities").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
