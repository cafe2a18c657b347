import type { OAuth2Db } from "../store/oauth2-tables.ts";

// Bulk deletions over oidc-provider's stored models. The provider reads tokens from the database on
// every use, so a deleted row is an inactive token from the next request on.

/** Revokes grants: the grants themselves and every code and token issued under them. */
export async function revokeGrants(db: OAuth2Db, grantIds: string[]): Promise<void> {
  if (grantIds.length === 0) return;
  await db
    .deleteFrom("oauth2_payloads")
    .where((eb) =>
      eb.or([
        eb("grant_id", "in", grantIds),
        eb.and([eb("model", "=", "Grant"), eb("id", "in", grantIds)]),
      ]),
    )
    .execute();
}

/** Hydra's DELETE /admin/oauth2/tokens: every access token issued to the client. */
export async function deleteAccessTokensOfClient(db: OAuth2Db, clientId: string): Promise<void> {
  await db
    .deleteFrom("oauth2_payloads")
    .where("model", "in", ["AccessToken", "ClientCredentials"])
    .where("client_id", "=", clientId)
    .execute();
}

/** A deleted client takes its grants, codes and tokens with it (Hydra cascades the same way). */
export async function deleteEverythingOfClient(db: OAuth2Db, clientId: string): Promise<void> {
  await db.deleteFrom("oauth2_payloads").where("client_id", "=", clientId).execute();
}

/** oidc-provider session rows of a subject, or the one with a uid (the `sid`). */
export async function deleteProviderSessions(
  db: OAuth2Db,
  where: { uid: string } | { accountId: string },
): Promise<number> {
  const result = await db
    .deleteFrom("oauth2_payloads")
    .where("model", "=", "Session")
    .where("uid" in where ? "uid" : "account_id", "=", "uid" in where ? where.uid : where.accountId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Rows past their expiry are removed by the periodic cleanup. */
export async function deleteExpiredPayloads(db: OAuth2Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom("oauth2_payloads")
    .where("expires_at", "<", now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
