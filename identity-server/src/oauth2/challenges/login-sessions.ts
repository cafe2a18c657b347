import type { OAuth2Db, OAuth2LoginSessionsTable } from "../store/oauth2-tables.ts";
import { firstRow } from "../../store/first-row.ts";

// Hydra's remembered login sessions (hydra_oauth2_authentication_session). oidc-provider keeps
// its own browser session; this row says whether Hydra would treat that session as remembered
// (skip=true, prompt=none allowed) and which identity-provider session to end on logout.

export interface LoginSession {
  /** The oidc-provider session uid; also the `sid` claim and Hydra's login session id. */
  id: string;
  subject: string;
  remember: boolean;
  authenticatedAt: Date;
  expiresAt: Date;
  identityProviderSessionId: string | undefined;
  acr: string | undefined;
  amr: string[];
}

function toRow(session: LoginSession): OAuth2LoginSessionsTable {
  return {
    id: session.id,
    subject: session.subject,
    remember: session.remember ? 1 : 0,
    authenticated_at: session.authenticatedAt.toISOString(),
    expires_at: session.expiresAt.toISOString(),
    identity_provider_session_id: session.identityProviderSessionId ?? null,
    acr: session.acr ?? null,
    amr: JSON.stringify(session.amr),
  };
}

function fromRow(row: OAuth2LoginSessionsTable): LoginSession {
  return {
    id: row.id,
    subject: row.subject,
    remember: row.remember === 1,
    authenticatedAt: new Date(row.authenticated_at),
    expiresAt: new Date(row.expires_at),
    identityProviderSessionId: row.identity_provider_session_id ?? undefined,
    acr: row.acr ?? undefined,
    amr: JSON.parse(row.amr) as string[],
  };
}

export async function saveLoginSession(db: OAuth2Db, session: LoginSession): Promise<void> {
  const row = toRow(session);
  await db
    .insertInto("oauth2_login_sessions")
    .values(row)
    .onConflict((oc) => oc.column("id").doUpdateSet(row))
    .execute();
}

export function findLoginSession(db: OAuth2Db, id: string): Promise<LoginSession | undefined> {
  return firstRow(db.selectFrom("oauth2_login_sessions").selectAll().where("id", "=", id), fromRow);
}

/** The session when Hydra would reuse it: remembered, unexpired and of the expected subject. */
export async function findRememberedLoginSession(
  db: OAuth2Db,
  id: string,
  subject: string,
  now: Date,
): Promise<LoginSession | undefined> {
  const session = await findLoginSession(db, id);
  if (!session || !session.remember || session.subject !== subject) return undefined;
  return session.expiresAt > now ? session : undefined;
}

/** Deletes the matching login sessions and returns them (their identity-provider sessions end too). */
export async function deleteLoginSessions(
  db: OAuth2Db,
  where: { id: string } | { subject: string },
): Promise<LoginSession[]> {
  const rows = await db
    .deleteFrom("oauth2_login_sessions")
    .where("id" in where ? "id" : "subject", "=", "id" in where ? where.id : where.subject)
    .returningAll()
    .execute();
  return rows.map(fromRow);
}
