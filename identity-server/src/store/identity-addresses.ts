import type { Identity, RecoveryAddress, VerifiableAddress } from "../identity/identity.ts";
import type { Executor } from "./schema.ts";

// An identity's verifiable and recovery address rows.

export async function insertVerifiableAddress(
  db: Executor,
  identityId: string,
  address: VerifiableAddress,
): Promise<void> {
  await db
    .insertInto("identity_verifiable_addresses")
    .values({
      id: address.id,
      identity_id: identityId,
      value: address.value,
      via: address.via,
      verified: address.verified ? 1 : 0,
      status: address.status,
      verified_at: address.verifiedAt?.toISOString() ?? null,
      created_at: address.createdAt.toISOString(),
      updated_at: address.updatedAt.toISOString(),
    })
    .execute();
}

export async function insertRecoveryAddress(
  db: Executor,
  identityId: string,
  address: RecoveryAddress,
): Promise<void> {
  await db
    .insertInto("identity_recovery_addresses")
    .values({
      id: address.id,
      identity_id: identityId,
      value: address.value,
      via: address.via,
      created_at: address.createdAt.toISOString(),
      updated_at: address.updatedAt.toISOString(),
    })
    .execute();
}

/**
 * Brings the stored addresses in line with the identity's: kept by id (verification state saved),
 * removed when gone, added when new.
 */
export async function replaceAddresses(db: Executor, identity: Identity): Promise<void> {
  const keepVerifiable = identity.verifiableAddresses.map((a) => a.id);
  let dropVerifiable = db
    .deleteFrom("identity_verifiable_addresses")
    .where("identity_id", "=", identity.id);
  if (keepVerifiable.length > 0)
    dropVerifiable = dropVerifiable.where("id", "not in", keepVerifiable);
  await dropVerifiable.execute();
  const existing = new Set(
    (
      await db
        .selectFrom("identity_verifiable_addresses")
        .select("id")
        .where("identity_id", "=", identity.id)
        .execute()
    ).map((row) => row.id),
  );
  for (const address of identity.verifiableAddresses) {
    if (existing.has(address.id)) await updateVerifiableAddress(db, address);
    else await insertVerifiableAddress(db, identity.id, address);
  }

  const keepRecovery = identity.recoveryAddresses.map((a) => a.id);
  let dropRecovery = db
    .deleteFrom("identity_recovery_addresses")
    .where("identity_id", "=", identity.id);
  if (keepRecovery.length > 0) dropRecovery = dropRecovery.where("id", "not in", keepRecovery);
  await dropRecovery.execute();
  const existingRecovery = new Set(
    (
      await db
        .selectFrom("identity_recovery_addresses")
        .select("id")
        .where("identity_id", "=", identity.id)
        .execute()
    ).map((row) => row.id),
  );
  for (const address of identity.recoveryAddresses) {
    if (!existingRecovery.has(address.id)) {
      await insertRecoveryAddress(db, identity.id, address);
    }
  }
}

/** Saves a verifiable address's verification state (verified, verified_at, status). */
export async function updateVerifiableAddress(
  db: Executor,
  address: VerifiableAddress,
): Promise<void> {
  await db
    .updateTable("identity_verifiable_addresses")
    .set({
      verified: address.verified ? 1 : 0,
      verified_at: address.verifiedAt?.toISOString() ?? null,
      status: address.status,
      updated_at: address.updatedAt.toISOString(),
    })
    .where("id", "=", address.id)
    .execute();
}

/** The identity owning an address of the given kind (normalised value), if any. */
async function findIdentityIdByAddress(
  db: Executor,
  table: "identity_recovery_addresses" | "identity_verifiable_addresses",
  via: "email" | "sms",
  value: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom(table)
    .select("identity_id")
    .where("via", "=", via)
    .where("value", "=", value)
    .executeTakeFirst();
  return row?.identity_id;
}

export function findIdentityIdByRecoveryAddress(
  db: Executor,
  via: "email" | "sms",
  value: string,
): Promise<string | undefined> {
  return findIdentityIdByAddress(db, "identity_recovery_addresses", via, value);
}

export function findIdentityIdByVerifiableAddress(
  db: Executor,
  via: "email" | "sms",
  value: string,
): Promise<string | undefined> {
  return findIdentityIdByAddress(db, "identity_verifiable_addresses", via, value);
}
