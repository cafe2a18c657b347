// No identity-server API creates sessions in bulk (Kratos has none either: sessions come from
// logins, and 100k argon2id logins would take minutes). So the bench writes session rows through
// the identity server's own store module (`saveSession`, the function its logins use), opening the
// server's SQLite file alongside it (WAL allows a second connection), while the server is idle.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { randomToken, type Session } from "../../identity-server/src/session/session.ts";
import { openDatabase } from "../../identity-server/src/store/database.ts";
import { saveSession } from "../../identity-server/src/store/sessions.ts";
import { hashToken } from "../../identity-server/src/session/session.ts";

const perTransaction = 1000;

/** One active aal1 password session per identity; returns the session tokens. */
export async function seedSessions(dataDir: string, identityIds: string[]): Promise<string[]> {
  const db = await openDatabase(dataDir);
  const tokens: string[] = [];
  const now = new Date();
  try {
    for (let start = 0; start < identityIds.length; start += perTransaction) {
      const chunk = identityIds.slice(start, start + perTransaction);
      // IMMEDIATE takes the write lock up front (waiting up to the busy timeout) so that a write by
      // the server cannot invalidate this transaction's snapshot half-way (SQLITE_BUSY).
      await sql`begin immediate`.execute(db);
      try {
        for (const identityId of chunk) {
          const token = randomToken("ory_st_");
          const session: Session = {
            id: randomUUID(),
            identityId,
            active: true,
            aal: "aal1",
            authenticationMethods: [{ method: "password", aal: "aal1", completedAt: now }],
            issuedAt: now,
            authenticatedAt: now,
            expiresAt: new Date(now.getTime() + 24 * 3_600_000),
            devices: [
              { id: randomUUID(), ipAddress: "127.0.0.1", userAgent: "portal-bench", location: "" },
            ],
            createdAt: now,
            updatedAt: now,
          };
          // New rows (no look-up for an existing session or its devices), as a login saves them.
          await saveSession(db, session, hashToken(token), { isNew: true });
          tokens.push(token);
        }
        await sql`commit`.execute(db);
      } catch (error) {
        await sql`rollback`.execute(db);
        throw error;
      }
    }
  } finally {
    await db.destroy();
  }
  return tokens;
}
