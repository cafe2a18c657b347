import type { ExpressionBuilder } from "kysely";
import type { OAuth2ConsentSessionsTable, OAuth2Db, OAuth2Tables } from "../store/oauth2-tables.ts";
import type { OidcContext } from "./oidc-context.ts";
import { firstRow } from "../../store/first-row.ts";

// Accepted consent requests (Hydra's handled consent flows). Each one owns an oidc-provider Grant;
// every code and token issued under it carries that grant id, which is how revoking a consent
// session revokes its tokens.

export interface ConsentSession {
  consentRequestId: string;
  consentChallenge: string;
  grantId: string;
  subject: string;
  clientId: string;
  loginChallenge: string | undefined;
  loginSessionId: string | undefined;
  /** Accepted while skip was true: such sessions are neither listed nor reused (as in Hydra). */
  skip: boolean;
  grantScope: string[];
  grantAudience: string[];
  remember: boolean;
  rememberFor: number;
  sessionAccessToken: Record<string, unknown>;
  sessionIdToken: Record<string, unknown>;
  context: unknown;
  requestedScope: string[];
  requestedAudience: string[];
  requestUrl: string;
  acr: string | undefined;
  amr: string[];
  oidcContext: OidcContext;
  handledAt: Date;
  rememberUntil: Date | undefined;
}

function toRow(session: ConsentSession): OAuth2ConsentSessionsTable {
  return {
    consent_request_id: session.consentRequestId,
    consent_challenge: session.consentChallenge,
    grant_id: session.grantId,
    subject: session.subject,
    client_id: session.clientId,
    login_challenge: session.loginChallenge ?? null,
    login_session_id: session.loginSessionId ?? null,
    skip: session.skip ? 1 : 0,
    grant_scope: JSON.stringify(session.grantScope),
    grant_audience: JSON.stringify(session.grantAudience),
    remember: session.remember ? 1 : 0,
    remember_for: session.rememberFor,
    session_access_token: JSON.stringify(session.sessionAccessToken),
    session_id_token: JSON.stringify(session.sessionIdToken),
    context: JSON.stringify(session.context ?? {}),
    requested_scope: JSON.stringify(session.requestedScope),
    requested_audience: JSON.stringify(session.requestedAudience),
    request_url: session.requestUrl,
    acr: session.acr ?? null,
    amr: JSON.stringify(session.amr),
    oidc_context: JSON.stringify(session.oidcContext),
    handled_at: session.handledAt.toISOString(),
    remember_until: session.rememberUntil?.toISOString() ?? null,
  };
}

function fromRow(row: OAuth2ConsentSessionsTable): ConsentSession {
  return {
    consentRequestId: row.consent_request_id,
    consentChallenge: row.consent_challenge,
    grantId: row.grant_id,
    subject: row.subject,
    clientId: row.client_id,
    loginChallenge: row.login_challenge ?? undefined,
    loginSessionId: row.login_session_id ?? undefined,
    skip: row.skip === 1,
    grantScope: JSON.parse(row.grant_scope) as string[],
    grantAudience: JSON.parse(row.grant_audience) as string[],
    remember: row.remember === 1,
    rememberFor: row.remember_for,
    sessionAccessToken: JSON.parse(row.session_access_token) as Record<string, unknown>,
    sessionIdToken: JSON.parse(row.session_id_token) as Record<string, unknown>,
    context: JSON.parse(row.context) as unknown,
    requestedScope: JSON.parse(row.requested_scope) as string[],
    requestedAudience: JSON.parse(row.requested_audience) as string[],
    requestUrl: row.request_url,
    acr: row.acr ?? undefined,
    amr: JSON.parse(row.amr) as string[],
    oidcContext: JSON.parse(row.oidc_context) as OidcContext,
    handledAt: new Date(row.handled_at),
    rememberUntil: row.remember_until ? new Date(row.remember_until) : undefined,
  };
}

/** Stores an accepted consent; a second accept of the same request replaces the first. */
export async function saveConsentSession(db: OAuth2Db, session: ConsentSession): Promise<void> {
  const row = toRow(session);
  await db
    .insertInto("oauth2_consent_sessions")
    .values(row)
    .onConflict((oc) => oc.column("consent_request_id").doUpdateSet(row))
    .execute();
}

/** The consent session whose unique `column` (its request id or its grant id) is `value`. */
async function findOneBy(
  db: OAuth2Db,
  column: "consent_request_id" | "grant_id",
  value: string,
): Promise<ConsentSession | undefined> {
  return firstRow(
    db.selectFrom("oauth2_consent_sessions").selectAll().where(column, "=", value),
    fromRow,
  );
}

export function findConsentSession(
  db: OAuth2Db,
  consentRequestId: string,
): Promise<ConsentSession | undefined> {
  return findOneBy(db, "consent_request_id", consentRequestId);
}

export function findConsentSessionByGrant(
  db: OAuth2Db,
  grantId: string,
): Promise<ConsentSession | undefined> {
  return findOneBy(db, "grant_id", grantId);
}

/** Remembered forever, or until a time still to come. */
function notExpired(now: Date) {
  return (eb: ExpressionBuilder<OAuth2Tables, "oauth2_consent_sessions">) =>
    eb.or([eb("remember_until", "is", null), eb("remember_until", ">", now.toISOString())]);
}

/** Hydra's FindGrantedAndRememberedConsentRequest: the newest remembered, unexpired consent. */
export function findRememberedConsent(
  db: OAuth2Db,
  subject: string,
  clientId: string,
  now: Date,
): Promise<ConsentSession | undefined> {
  return firstRow(
    db
      .selectFrom("oauth2_consent_sessions")
      .selectAll()
      .where("subject", "=", subject)
      .where("client_id", "=", clientId)
      .where("skip", "=", 0)
      .where("remember", "=", 1)
      .where(notExpired(now))
      .orderBy("handled_at", "desc"),
    fromRow,
  );
}

/** The consent sessions Hydra lists for a subject: not skipped, not expired. */
export async function listConsentSessions(
  db: OAuth2Db,
  options: {
    subject: string;
    loginSessionId?: string;
    now: Date;
    pageSize: number;
    after?: string;
  },
): Promise<{ sessions: ConsentSession[]; nextAfter: string | undefined }> {
  let query = db
    .selectFrom("oauth2_consent_sessions")
    .selectAll()
    .where("subject", "=", options.subject)
    .where("skip", "=", 0)
    .where(notExpired(options.now))
    .orderBy("consent_request_id")
    .limit(options.pageSize + 1);
  if (options.loginSessionId) query = query.where("login_session_id", "=", options.loginSessionId);
  if (options.after !== undefined) query = query.where("consent_request_id", ">", options.after);
  const rows = await query.execute();
  const sessions = rows.slice(0, options.pageSize).map(fromRow);
  return {
    sessions,
    nextAfter: rows.length > options.pageSize ? sessions.at(-1)?.consentRequestId : undefined,
  };
}

export type ConsentSelector =
  | { subject: string; clientId: string }
  | { subject: string; allClients: true }
  | { consentRequestId: string };

/** Deletes the selected consent sessions and returns their grant ids (whose tokens must go). */
export async function deleteConsentSessions(
  db: OAuth2Db,
  selector: ConsentSelector,
): Promise<string[]> {
  let query = db.deleteFrom("oauth2_consent_sessions");
  if ("consentRequestId" in selector) {
    query = query.where("consent_request_id", "=", selector.consentRequestId);
  } else {
    query = query.where("subject", "=", selector.subject);
    if ("clientId" in selector) query = query.where("client_id", "=", selector.clientId);
  }
  const rows = await query.returning("grant_id").execute();
  return rows.map((row) => row.grant_id);
}

export async function deleteConsentSessionsOfClient(db: OAuth2Db, clientId: string): Promise<void> {
  await db.deleteFrom("oauth2_consent_sessions").where("client_id", "=", clientId).execute();
}
