import type { AuthenticationMethod, Session, SessionDevice } from "../session/session.ts";
import { CompiledQuery, type SelectQueryBuilder } from "kysely";
import type { Database, Executor } from "./schema.ts";

// Reading sessions: by token or id, an identity's page, and the admin keyset list.

type SessionRow = Database["sessions"];
type DeviceRow = Database["session_devices"];

/** Rows to sessions, with each session's devices (oldest first). */
async function hydrate(db: Executor, rows: SessionRow[]): Promise<Session[]> {
  if (rows.length === 0) return [];
  const devices: DeviceRow[] = await db
    .selectFrom("session_devices")
    .selectAll()
    .where(
      "session_id",
      "in",
      rows.map((row) => row.id),
    )
    .orderBy("created_at")
    .execute();
  return assemble(rows, devices);
}

function assemble(rows: SessionRow[], devices: DeviceRow[]): Session[] {
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

// The session of a token with its devices in one statement of fixed text (every authenticated
// request starts here): no query building per call, one round through SQLite instead of two.
const deviceColumns = ["id", "session_id", "ip_address", "user_agent", "location", "created_at"];
const sessionByTokenStatement =
  `select s.*, (select json_group_array(json_object(${deviceColumns.map((c) => `'${c}', ${c}`).join(", ")}) ` +
  `order by created_at) from session_devices where session_id = s.id) as devices_json ` +
  `from sessions s where s.token_hash = ?`;

export async function findSessionByTokenHash(
  db: Executor,
  tokenHash: string,
): Promise<Session | undefined> {
  const { rows } = await db.executeQuery<SessionRow & { devices_json: string }>(
    CompiledQuery.raw(sessionByTokenStatement, [tokenHash]),
  );
  const found = rows[0];
  if (!found) return undefined;
  const { devices_json, ...row } = found;
  return assemble([row], JSON.parse(devices_json) as DeviceRow[])[0];
}

export async function findSessionById(db: Executor, id: string): Promise<Session | undefined> {
  const row = await db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? (await hydrate(db, [row]))[0] : undefined;
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
