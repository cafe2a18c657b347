import type { AuthenticationMethod, Session, SessionDevice } from "../session/session.ts";
import type { Executor } from "./schema.ts";

/** Inserts or updates the session (looked up by id) and appends devices it does not have yet. */
export async function saveSession(
  db: Executor,
  session: Session,
  tokenHash: string | undefined,
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
      })),
    ),
    issued_at: session.issuedAt.toISOString(),
    authenticated_at: session.authenticatedAt.toISOString(),
    expires_at: session.expiresAt.toISOString(),
    updated_at: session.updatedAt.toISOString(),
  };
  const existing = await db
    .selectFrom("sessions")
    .select("id")
    .where("id", "=", session.id)
    .executeTakeFirst();
  if (existing) {
    await db.updateTable("sessions").set(values).where("id", "=", session.id).execute();
  } else {
    if (!tokenHash) throw new Error("A new session needs a token hash");
    await db
      .insertInto("sessions")
      .values({
        id: session.id,
        token_hash: tokenHash,
        created_at: session.createdAt.toISOString(),
        ...values,
      })
      .execute();
  }
  const known = new Set(
    (
      await db
        .selectFrom("session_devices")
        .select("id")
        .where("session_id", "=", session.id)
        .execute()
    ).map((row) => row.id),
  );
  for (const device of session.devices) {
    if (known.has(device.id)) continue;
    await db
      .insertInto("session_devices")
      .values({
        id: device.id,
        session_id: session.id,
        ip_address: device.ipAddress,
        user_agent: device.userAgent,
        location: device.location,
        created_at: session.updatedAt.toISOString(),
      })
      .execute();
  }
}

export async function findSessionByTokenHash(
  db: Executor,
  tokenHash: string,
): Promise<Session | undefined> {
  const row = await db
    .selectFrom("sessions")
    .selectAll()
    .where("token_hash", "=", tokenHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const devices = await db
    .selectFrom("session_devices")
    .selectAll()
    .where("session_id", "=", row.id)
    .orderBy("created_at")
    .execute();
  const methods = JSON.parse(row.authentication_methods) as {
    method: string;
    aal: AuthenticationMethod["aal"];
    completed_at: string;
  }[];
  return {
    id: row.id,
    identityId: row.identity_id,
    active: row.active === 1,
    aal: row.aal as Session["aal"],
    authenticationMethods: methods.map((m) => ({
      method: m.method,
      aal: m.aal,
      completedAt: new Date(m.completed_at),
    })),
    issuedAt: new Date(row.issued_at),
    authenticatedAt: new Date(row.authenticated_at),
    expiresAt: new Date(row.expires_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    devices: devices.map((d): SessionDevice => ({
      id: d.id,
      ipAddress: d.ip_address,
      userAgent: d.user_agent,
      location: d.location,
    })),
  };
}

export async function revokeSession(db: Executor, sessionId: string, now: Date): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ active: 0, updated_at: now.toISOString() })
    .where("id", "=", sessionId)
    .execute();
  await db.deleteFrom("session_logout_tokens").where("session_id", "=", sessionId).execute();
}

export async function insertLogoutToken(
  db: Executor,
  sessionId: string,
  tokenHash: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto("session_logout_tokens")
    .values({ token_hash: tokenHash, session_id: sessionId, created_at: now.toISOString() })
    .execute();
}

export async function logoutTokenBelongsTo(
  db: Executor,
  sessionId: string,
  tokenHash: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("session_logout_tokens")
    .select("session_id")
    .where("token_hash", "=", tokenHash)
    .executeTakeFirst();
  return row?.session_id === sessionId;
}

/** Revokes every active session of the identity except `keepSessionId` (after a recovery). */
export async function revokeOtherSessions(
  db: Executor,
  identityId: string,
  keepSessionId: string,
  now: Date,
): Promise<number> {
  const others = await db
    .selectFrom("sessions")
    .select("id")
    .where("identity_id", "=", identityId)
    .where("id", "!=", keepSessionId)
    .where("active", "=", 1)
    .execute();
  for (const { id } of others) await revokeSession(db, id, now);
  return others.length;
}
