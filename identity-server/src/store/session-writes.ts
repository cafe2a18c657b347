import { CompiledQuery } from "kysely";
import type { Session } from "../session/session.ts";
import type { Executor } from "./schema.ts";

// Writing a session: the row, its devices, and a new expiry.

// A sign-in's new session and its device, as fixed statement texts (no query building per login).
const newSessionColumns = [
  "id",
  "token_hash",
  "created_at",
  "identity_id",
  "active",
  "aal",
  "authentication_methods",
  "issued_at",
  "authenticated_at",
  "expires_at",
  "updated_at",
] as const;
const deviceColumns = [
  "id",
  "session_id",
  "ip_address",
  "user_agent",
  "location",
  "created_at",
] as const;
const insertInto = (table: string, columns: readonly string[]) =>
  `insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) ` +
  `values (${columns.map(() => "?").join(", ")})`;
const insertSessionStatement = insertInto("sessions", newSessionColumns);
const insertDeviceStatement = insertInto("session_devices", deviceColumns);

/** Inserts or updates the session (looked up by id) and appends devices it does not have yet. */
export async function saveSession(
  db: Executor,
  session: Session,
  tokenHash: string | undefined,
  options: { isNew?: boolean } = {},
): Promise<void> {
  const values = {
    identity_id: session.identityId,
    active: session.active ? 1 : 0,
    aal: session.aal,
    authentication_methods: JSON.stringify(
      session.authenticationMethods.map((m) => ({
        method: m.method,
        aal: m.aal,
        completed_at: m.completedAt.toISOString(),
        ...(m.provider ? { provider: m.provider } : {}),
      })),
    ),
    issued_at: session.issuedAt.toISOString(),
    authenticated_at: session.authenticatedAt.toISOString(),
    expires_at: session.expiresAt.toISOString(),
    updated_at: session.updatedAt.toISOString(),
  };
  // A session the caller just created (`isNew`) has no row and no devices yet: no look-ups.
  const existing = options.isNew
    ? undefined
    : await db.selectFrom("sessions").select("id").where("id", "=", session.id).executeTakeFirst();
  if (existing) {
    await db.updateTable("sessions").set(values).where("id", "=", session.id).execute();
  } else {
    if (!tokenHash) throw new Error("A new session needs a token hash");
    const row = {
      id: session.id,
      token_hash: tokenHash,
      created_at: session.createdAt.toISOString(),
      ...values,
    };
    await db.executeQuery(
      CompiledQuery.raw(
        insertSessionStatement,
        newSessionColumns.map((column) => row[column]),
      ),
    );
  }
  const known = new Set(
    options.isNew
      ? []
      : (
          await db
            .selectFrom("session_devices")
            .select("id")
            .where("session_id", "=", session.id)
            .execute()
        ).map((row) => row.id),
  );
  for (const device of session.devices) {
    if (known.has(device.id)) continue;
    await db.executeQuery(
      CompiledQuery.raw(insertDeviceStatement, [
        device.id,
        session.id,
        device.ipAddress,
        device.userAgent,
        device.location,
        session.updatedAt.toISOString(),
      ]),
    );
  }
}

export async function setSessionExpiry(
  db: Executor,
  sessionId: string,
  expiresAt: Date,
  now: Date,
): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ expires_at: expiresAt.toISOString(), updated_at: now.toISOString() })
    .where("id", "=", sessionId)
    .execute();
}
