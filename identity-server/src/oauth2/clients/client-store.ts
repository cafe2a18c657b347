import type { OAuth2ClientsTable, OAuth2Db } from "../store/oauth2-tables.ts";
import { forgetVerifiedSecrets } from "../crypto/verified-secrets.ts";
import type { HydraClient } from "./client-document.ts";
import { firstRow } from "../../store/first-row.ts";

/** A client as stored: Hydra's document plus the hashes of its current and rotated secrets. */
export interface StoredClient {
  client: HydraClient;
  secretHash: string | null;
  rotatedSecretHashes: string[];
}

function toRow(stored: StoredClient): OAuth2ClientsTable {
  return {
    id: stored.client.client_id,
    document: JSON.stringify(stored.client),
    secret_hash: stored.secretHash,
    rotated_secret_hashes: JSON.stringify(stored.rotatedSecretHashes),
    client_name: stored.client.client_name,
    owner: stored.client.owner,
    created_at: stored.client.created_at,
    updated_at: stored.client.updated_at,
  };
}

function fromRow(row: OAuth2ClientsTable): StoredClient {
  return {
    client: JSON.parse(row.document) as HydraClient,
    secretHash: row.secret_hash,
    rotatedSecretHashes: JSON.parse(row.rotated_secret_hashes) as string[],
  };
}

/** All hashes a presented secret may match: the current one first. */
export function secretHashesOf(stored: StoredClient): string[] {
  return [...(stored.secretHash ? [stored.secretHash] : []), ...stored.rotatedSecretHashes];
}

export function findClient(db: OAuth2Db, id: string): Promise<StoredClient | undefined> {
  return firstRow(db.selectFrom("oauth2_clients").selectAll().where("id", "=", id), fromRow);
}

/** Inserts a new client; false when the id is taken. */
export async function insertClient(db: OAuth2Db, stored: StoredClient): Promise<boolean> {
  const result = await db
    .insertInto("oauth2_clients")
    .values(toRow(stored))
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  forgetVerifiedSecrets(stored.client.client_id);
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function updateClient(db: OAuth2Db, stored: StoredClient): Promise<void> {
  const row = toRow(stored);
  await db.updateTable("oauth2_clients").set(row).where("id", "=", row.id).execute();
  // Remembered verifications are keyed by the hash they matched too, so one that finishes after
  // this could never vouch for a changed secret.
  forgetVerifiedSecrets(row.id);
}

export async function deleteClient(db: OAuth2Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom("oauth2_clients").where("id", "=", id).executeTakeFirst();
  forgetVerifiedSecrets(id);
  return Number(result.numDeletedRows) > 0;
}

export interface ClientPage {
  clients: StoredClient[];
  /** The id to continue after, when there are more clients. */
  nextAfter: string | undefined;
}

/** Clients ordered by id (keyset pagination), optionally filtered by exact name and owner. */
export async function listClients(
  db: OAuth2Db,
  options: { pageSize: number; after?: string; clientName?: string; owner?: string },
): Promise<ClientPage> {
  let query = db
    .selectFrom("oauth2_clients")
    .selectAll()
    .orderBy("id")
    .limit(options.pageSize + 1);
  if (options.after !== undefined) query = query.where("id", ">", options.after);
  if (options.clientName) query = query.where("client_name", "=", options.clientName);
  if (options.owner) query = query.where("owner", "=", options.owner);
  const rows = await query.execute();
  const page = rows.slice(0, options.pageSize).map(fromRow);
  return {
    clients: page,
    nextAfter: rows.length > options.pageSize ? page.at(-1)?.client.client_id : undefined,
  };
}

/** Every scope any client may request; the provider must know them all up front. */
export async function allClientScopes(db: OAuth2Db): Promise<Set<string>> {
  const rows = await db.selectFrom("oauth2_clients").select("document").execute();
  const scopes = new Set<string>();
  for (const row of rows) {
    const client = JSON.parse(row.document) as HydraClient;
    for (const scope of client.scope.split(" ")) if (scope) scopes.add(scope);
  }
  return scopes;
}
