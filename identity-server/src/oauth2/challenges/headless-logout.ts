import type Provider from "oidc-provider";
import type { Logger } from "pino";
import type { OAuth2Db } from "../store/oauth2-tables.ts";
import { deleteProviderSessions } from "../tokens/token-rows.ts";
import { deleteLoginSessions } from "./login-sessions.ts";

// DELETE /admin/oauth2/auth/sessions/login (Hydra's revokeOAuth2LoginSessions):
// - `sid`: ends that one login session, tells back-channel clients and ends the identity
//   provider's session (Hydra's HandleHeadlessLogout);
// - `subject`: ends all the subject's login sessions, without back-channel logout.
// Tokens stay valid either way, as in Hydra.

export interface HeadlessLogoutDeps {
  db: OAuth2Db;
  logger: Logger;
  provider(): Provider;
  endIdentityProviderSessions(sessionIds: string[]): Promise<void>;
}

interface StoredSession {
  accountId?: string;
  authorizations?: Record<string, { sid?: string }>;
}

async function notifyBackChannel(deps: HeadlessLogoutDeps, sid: string): Promise<void> {
  const row = await deps.db
    .selectFrom("oauth2_payloads")
    .select("payload")
    .where("model", "=", "Session")
    .where("uid", "=", sid)
    .executeTakeFirst();
  if (!row) return;
  const session = JSON.parse(row.payload) as StoredSession;
  if (!session.accountId) return;
  for (const [clientId, authorization] of Object.entries(session.authorizations ?? {})) {
    const client = await deps.provider().Client.find(clientId);
    if (!client?.backchannelLogoutUri) continue;
    try {
      await (
        client as typeof client & { backchannelLogout(sub: string, sid: string): Promise<void> }
      ).backchannelLogout(session.accountId, authorization.sid ?? sid);
    } catch (error) {
      deps.logger.warn({ err: error, clientId }, "back-channel logout failed");
    }
  }
}

export async function revokeLoginSessionById(deps: HeadlessLogoutDeps, sid: string): Promise<void> {
  await notifyBackChannel(deps, sid);
  await deleteProviderSessions(deps.db, { uid: sid });
  const ended = await deleteLoginSessions(deps.db, { id: sid });
  const idpSessions = ended.flatMap((session) => session.identityProviderSessionId ?? []);
  if (idpSessions.length > 0) await deps.endIdentityProviderSessions(idpSessions);
}

export async function revokeLoginSessionsOfSubject(
  deps: HeadlessLogoutDeps,
  subject: string,
): Promise<void> {
  await deleteProviderSessions(deps.db, { accountId: subject });
  await deleteLoginSessions(deps.db, { subject });
}
