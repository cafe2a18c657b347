import type { Executor, TrustedDevicesTable } from "./schema.ts";
import { firstRow } from "./first-row.ts";

export interface TrustedDevice {
  id: string;
  identityId: string;
  tokenHash: string;
  userAgent: string | null;
  ipAddress: string | null;
  fingerprint: string | null;
  createdAt: Date;
  expiresAt: Date;
}

function fromRow(row: TrustedDevicesTable): TrustedDevice {
  return {
    id: row.id,
    identityId: row.identity_id,
    tokenHash: row.token_hash,
    userAgent: row.user_agent,
    ipAddress: row.ip_address,
    fingerprint: row.fingerprint,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
  };
}

export async function insertTrustedDevice(db: Executor, device: TrustedDevice): Promise<void> {
  await db
    .insertInto("trusted_devices")
    .values({
      id: device.id,
      identity_id: device.identityId,
      token_hash: device.tokenHash,
      user_agent: device.userAgent,
      ip_address: device.ipAddress,
      fingerprint: device.fingerprint,
      created_at: device.createdAt.toISOString(),
      expires_at: device.expiresAt.toISOString(),
    })
    .execute();
}

export function findTrustedDeviceByTokenHash(
  db: Executor,
  tokenHash: string,
): Promise<TrustedDevice | undefined> {
  return firstRow(
    db.selectFrom("trusted_devices").selectAll().where("token_hash", "=", tokenHash),
    fromRow,
  );
}

/** The identity's devices that are still trusted, oldest first. */
export async function listTrustedDevices(
  db: Executor,
  identityId: string,
  now: Date,
): Promise<TrustedDevice[]> {
  const rows = await db
    .selectFrom("trusted_devices")
    .selectAll()
    .where("identity_id", "=", identityId)
    .where("expires_at", ">", now.toISOString())
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(fromRow);
}

/** Removes one device of the identity; returns whether it existed. */
export async function deleteTrustedDevice(
  db: Executor,
  identityId: string,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom("trusted_devices")
    .where("identity_id", "=", identityId)
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Forgets every trusted device of the identity (a second factor changed or the account was recovered). */
export async function deleteTrustedDevicesOf(db: Executor, identityId: string): Promise<number> {
  const result = await db
    .deleteFrom("trusted_devices")
    .where("identity_id", "=", identityId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
