import type { Executor } from "./schema.ts";

// Signing sessions out (one, all but one, every one) and the logout tokens that go with them.

/** The update that marks sessions signed out at `now`; the caller says which rows. */
function signOut(db: Executor, now: Date) {
  return db.updateTable("sessions").set({ active: 0, updated_at: now.toISOString() });
}

/** A signed-out session's logout tokens are no use any more. */
async function dropLogoutTokens(db: Executor, sessionId: string): Promise<void> {
  await db.deleteFrom("session_logout_tokens").where("session_id", "=", sessionId).execute();
}

export async function revokeSession(db: Executor, sessionId: string, now: Date): Promise<void> {
  await revokeSessionById(db, sessionId, now);
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

/**
 * Signs out every other session of the identity (DELETE /sessions). Like Kratos on SQLite, the
 * count is every other session the statement matched, including ones already signed out.
 */
export async function revokeSessionsExcept(
  db: Executor,
  identityId: string,
  keepSessionId: string,
  now: Date,
): Promise<number> {
  const result = await signOut(db, now)
    .where("identity_id", "=", identityId)
    .where("id", "!=", keepSessionId)
    .executeTakeFirst();
  await db
    .deleteFrom("session_logout_tokens")
    .where("session_id", "in", (eb) =>
      eb
        .selectFrom("sessions")
        .select("id")
        .where("identity_id", "=", identityId)
        .where("id", "!=", keepSessionId),
    )
    .execute();
  return Number(result.numUpdatedRows);
}

/** Signs out one session of the identity; unknown or foreign ids change nothing. */
export async function revokeSessionOf(
  db: Executor,
  identityId: string,
  sessionId: string,
  now: Date,
): Promise<void> {
  const result = await signOut(db, now)
    .where("id", "=", sessionId)
    .where("identity_id", "=", identityId)
    .where("active", "=", 1)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) await dropLogoutTokens(db, sessionId);
}

/** Signs out a session by id (admin); returns whether it exists. */
export async function revokeSessionById(
  db: Executor,
  sessionId: string,
  now: Date,
): Promise<boolean> {
  const result = await signOut(db, now).where("id", "=", sessionId).executeTakeFirst();
  await dropLogoutTokens(db, sessionId);
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes every session of the identity (devices and logout tokens go with them). */
export async function deleteSessionsOfIdentity(db: Executor, identityId: string): Promise<number> {
  const result = await db
    .deleteFrom("sessions")
    .where("identity_id", "=", identityId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
