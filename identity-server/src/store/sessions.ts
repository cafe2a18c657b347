import type { AuthenticationMethod, Session, SessionDevice } from "../session/session.ts";
import type { SelectQueryBuilder } from "kysely";
import type { Database, Executor } from "./schema.ts";

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

type SessionRow = Database["sessions"];

/** Rows to sessions, with each session's devices (oldest first). */
async function hydrate(db: Executor, rows: SessionRow[]): Promise<Session[]> {
  if (rows.length === 0) return [];
  const devices = await db
    .selectFrom("session_devices")
    .selectAll()
    .where(
      "session_id",
      "in",
      rows.map((row) => row.id),
    )
    .orderBy("created_at")
    .execute();
  return rows.map((row) => {
    const methods = JSON.parse(row.authentication_methods) as {
      method: string;
      aal: AuthenticationMethod["aal"];
      completed_at: string;
      provider?: string;
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
        provider: m.provider,
      })),
      issuedAt: new Date(row.issued_at),
      authenticatedAt: new Date(row.authenticated_at),
      expiresAt: new Date(row.expires_at),
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
      devices: devices
        .filter((d) => d.session_id === row.id)
        .map((d): SessionDevice => ({
          id: d.id,
          ipAddress: d.ip_address,
          userAgent: d.user_agent,
          location: d.location,
        })),
    };
  });
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
  const [session] = await hydrate(db, [row]);
  return session;
}

export async function findSessionById(db: Executor, id: string): Promise<Session | undefined> {
  const row = await db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const [session] = await hydrate(db, [row]);
  return session;
}

/**
 * Kratos' `active` filter: true = flagged active and not expired; false = revoked or expired;
 * undefined = every session.
 */
function filterActive(
  query: SelectQueryBuilder<Database, "sessions", object>,
  active: boolean | undefined,
  now: Date,
): SelectQueryBuilder<Database, "sessions", object> {
  if (active === undefined) return query;
  if (active) {
    return query.where("active", "=", 1).where("expires_at", ">=", now.toISOString());
  }
  return query.where((eb) =>
    eb.or([eb("active", "=", 0), eb("expires_at", "<", now.toISOString())]),
  );
}

/** One page (offset/limit) of an identity's sessions, newest first, and how many there are. */
export async function listSessionsOfIdentity(
  db: Executor,
  identityId: string,
  options: {
    active?: boolean | undefined;
    exceptId?: string;
    now: Date;
    offset: number;
    limit: number;
  },
): Promise<{ sessions: Session[]; total: number }> {
  let base = db.selectFrom("sessions").where("identity_id", "=", identityId);
  if (options.exceptId) base = base.where("id", "!=", options.exceptId);
  base = filterActive(base, options.active, options.now);
  const counted = await base
    .select((eb) => eb.fn.countAll<number>().as("total"))
    .executeTakeFirst();
  const rows = await base
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .offset(options.offset)
    .limit(options.limit)
    .execute();
  return { sessions: await hydrate(db, rows), total: Number(counted?.total ?? 0) };
}

/** Where a keyset page of all sessions continues: after this (created_at, id), newest first. */
export interface SessionCursor {
  createdAt: string;
  id: string;
}

/** One keyset page of every session, newest first (Kratos' admin ListSessions). */
export async function listAllSessions(
  db: Executor,
  options: {
    active?: boolean | undefined;
    now: Date;
    pageSize: number;
    after: SessionCursor | undefined;
  },
): Promise<{ sessions: Session[]; next: SessionCursor | undefined }> {
  let query = filterActive(db.selectFrom("sessions"), options.active, options.now);
  const after = options.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", after.createdAt),
        eb.and([eb("created_at", "=", after.createdAt), eb("id", "<", after.id)]),
      ]),
    );
  }
  const rows = await query
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(options.pageSize + 1)
    .execute();
  const page = rows.slice(0, options.pageSize);
  const last = page[page.length - 1];
  return {
    sessions: await hydrate(db, page),
    next:
      rows.length > options.pageSize && last
        ? { createdAt: last.created_at, id: last.id }
        : undefined,
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
  const result = await db
    .updateTable("sessions")
    .set({ active: 0, updated_at: now.toISOString() })
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
  const result = await db
    .updateTable("sessions")
    .set({ active: 0, updated_at: now.toISOString() })
    .where("id", "=", sessionId)
    .where("identity_id", "=", identityId)
    .where("active", "=", 1)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) {
    await db.deleteFrom("session_logout_tokens").where("session_id", "=", sessionId).execute();
  }
}

/** Signs out a session by id (admin); returns whether it exists. */
export async function revokeSessionById(
  db: Executor,
  sessionId: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable("sessions")
    .set({ active: 0, updated_at: now.toISOString() })
    .where("id", "=", sessionId)
    .executeTakeFirst();
  await db.deleteFrom("session_logout_tokens").where("session_id", "=", sessionId).execute();
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
