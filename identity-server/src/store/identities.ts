import { randomUUID } from "node:crypto";
import type {
  Credential,
  Identity,
  RecoveryAddress,
  VerifiableAddress,
} from "../identity/identity.ts";
import { sql } from "kysely";
import type { Executor } from "./schema.ts";

/** A unique constraint (identifier or address) already belongs to another identity. */
export class DuplicateIdentityError extends Error {
  constructor(cause: unknown) {
    super("An identity with the same identifier or address exists already", { cause });
    this.name = "DuplicateIdentityError";
  }
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed/.test(error.message);
}

async function insertCredential(
  db: Executor,
  identityId: string,
  credential: Credential,
): Promise<void> {
  await db
    .insertInto("identity_credentials")
    .values({
      id: credential.id,
      identity_id: identityId,
      type: credential.type,
      config: JSON.stringify(credential.config),
      version: credential.version,
      created_at: credential.createdAt.toISOString(),
      updated_at: credential.updatedAt.toISOString(),
    })
    .execute();
  for (const identifier of credential.identifiers) {
    await db
      .insertInto("identity_credential_identifiers")
      .values({
        id: randomUUID(),
        credential_id: credential.id,
        identity_id: identityId,
        type: credential.type,
        identifier,
        created_at: credential.createdAt.toISOString(),
      })
      .execute();
  }
}

async function insertVerifiableAddress(
  db: Executor,
  identityId: string,
  address: VerifiableAddress,
): Promise<void> {
  await db
    .insertInto("identity_verifiable_addresses")
    .values({
      id: address.id,
      identity_id: identityId,
      value: address.value,
      via: address.via,
      verified: address.verified ? 1 : 0,
      status: address.status,
      verified_at: address.verifiedAt?.toISOString() ?? null,
      created_at: address.createdAt.toISOString(),
      updated_at: address.updatedAt.toISOString(),
    })
    .execute();
}

async function insertRecoveryAddress(
  db: Executor,
  identityId: string,
  address: RecoveryAddress,
): Promise<void> {
  await db
    .insertInto("identity_recovery_addresses")
    .values({
      id: address.id,
      identity_id: identityId,
      value: address.value,
      via: address.via,
      created_at: address.createdAt.toISOString(),
      updated_at: address.updatedAt.toISOString(),
    })
    .execute();
}

function metadataColumn(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** Inserts the identity with its credentials and addresses; run it inside a transaction. */
export async function insertIdentity(db: Executor, identity: Identity): Promise<void> {
  try {
    await db
      .insertInto("identities")
      .values({
        id: identity.id,
        schema_id: identity.schemaId,
        state: identity.state,
        state_changed_at: identity.stateChangedAt?.toISOString() ?? null,
        traits: JSON.stringify(identity.traits),
        metadata_public: metadataColumn(identity.metadataPublic),
        metadata_admin: metadataColumn(identity.metadataAdmin),
        created_at: identity.createdAt.toISOString(),
        updated_at: identity.updatedAt.toISOString(),
      })
      .execute();
    for (const credential of identity.credentials) {
      await insertCredential(db, identity.id, credential);
    }
    for (const address of identity.verifiableAddresses) {
      await insertVerifiableAddress(db, identity.id, address);
    }
    for (const address of identity.recoveryAddresses) {
      await insertRecoveryAddress(db, identity.id, address);
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw new DuplicateIdentityError(error);
    throw error;
  }
}

/**
 * Writes an identity back: traits and state, credentials (rewritten whole, with their identifiers)
 * and addresses (kept by id, removed when gone, added when new). Run it inside a transaction; a
 * clash with another identity's identifier or address throws DuplicateIdentityError.
 */
export async function updateIdentity(db: Executor, identity: Identity): Promise<void> {
  try {
    await db
      .updateTable("identities")
      .set({
        state: identity.state,
        state_changed_at: identity.stateChangedAt?.toISOString() ?? null,
        traits: JSON.stringify(identity.traits),
        metadata_public: metadataColumn(identity.metadataPublic),
        metadata_admin: metadataColumn(identity.metadataAdmin),
        updated_at: identity.updatedAt.toISOString(),
      })
      .where("id", "=", identity.id)
      .execute();

    await db.deleteFrom("identity_credentials").where("identity_id", "=", identity.id).execute();
    for (const credential of identity.credentials) {
      await insertCredential(db, identity.id, credential);
    }

    const keepVerifiable = identity.verifiableAddresses.map((a) => a.id);
    let dropVerifiable = db
      .deleteFrom("identity_verifiable_addresses")
      .where("identity_id", "=", identity.id);
    if (keepVerifiable.length > 0)
      dropVerifiable = dropVerifiable.where("id", "not in", keepVerifiable);
    await dropVerifiable.execute();
    const existing = new Set(
      (
        await db
          .selectFrom("identity_verifiable_addresses")
          .select("id")
          .where("identity_id", "=", identity.id)
          .execute()
      ).map((row) => row.id),
    );
    for (const address of identity.verifiableAddresses) {
      if (existing.has(address.id)) await updateVerifiableAddress(db, address);
      else await insertVerifiableAddress(db, identity.id, address);
    }

    const keepRecovery = identity.recoveryAddresses.map((a) => a.id);
    let dropRecovery = db
      .deleteFrom("identity_recovery_addresses")
      .where("identity_id", "=", identity.id);
    if (keepRecovery.length > 0) dropRecovery = dropRecovery.where("id", "not in", keepRecovery);
    await dropRecovery.execute();
    const existingRecovery = new Set(
      (
        await db
          .selectFrom("identity_recovery_addresses")
          .select("id")
          .where("identity_id", "=", identity.id)
          .execute()
      ).map((row) => row.id),
    );
    for (const address of identity.recoveryAddresses) {
      if (!existingRecovery.has(address.id)) {
        await insertRecoveryAddress(db, identity.id, address);
      }
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw new DuplicateIdentityError(error);
    throw error;
  }
}

/** Saves a verifiable address's verification state (verified, verified_at, status). */
export async function updateVerifiableAddress(
  db: Executor,
  address: VerifiableAddress,
): Promise<void> {
  await db
    .updateTable("identity_verifiable_addresses")
    .set({
      verified: address.verified ? 1 : 0,
      verified_at: address.verifiedAt?.toISOString() ?? null,
      status: address.status,
      updated_at: address.updatedAt.toISOString(),
    })
    .where("id", "=", address.id)
    .execute();
}

/** The identity owning a recovery address (normalised value), if any. */
export async function findIdentityIdByRecoveryAddress(
  db: Executor,
  via: "email" | "sms",
  value: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("identity_recovery_addresses")
    .select("identity_id")
    .where("via", "=", via)
    .where("value", "=", value)
    .executeTakeFirst();
  return row?.identity_id;
}

/** The identity owning a verifiable address (normalised value), if any. */
export async function findIdentityIdByVerifiableAddress(
  db: Executor,
  via: "email" | "sms",
  value: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("identity_verifiable_addresses")
    .select("identity_id")
    .where("via", "=", via)
    .where("value", "=", value)
    .executeTakeFirst();
  return row?.identity_id;
}

/** What `hydrate` may leave out when the caller does not need it. */
export interface IdentityReadOptions {
  /**
   * false: credentials come without their identifiers (one query less; whoami needs only their
   * types and configs, for the AAL policy).
   */
  credentialIdentifiers?: boolean;
}

async function hydrate(
  db: Executor,
  ids: string[],
  options: IdentityReadOptions = {},
): Promise<Identity[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("identities").selectAll().where("id", "in", ids).execute();
  const credentials = await db
    .selectFrom("identity_credentials")
    .selectAll()
    .where("identity_id", "in", ids)
    .orderBy("type")
    .execute();
  const identifiers =
    options.credentialIdentifiers === false
      ? []
      : await db
          .selectFrom("identity_credential_identifiers")
          .selectAll()
          .where("identity_id", "in", ids)
          .orderBy("identifier")
          .execute();
  const verifiable = await db
    .selectFrom("identity_verifiable_addresses")
    .selectAll()
    .where("identity_id", "in", ids)
    .orderBy("created_at")
    .orderBy("via")
    .execute();
  const recovery = await db
    .selectFrom("identity_recovery_addresses")
    .selectAll()
    .where("identity_id", "in", ids)
    .orderBy("created_at")
    .orderBy("via")
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const identity: Identity = {
      id: row.id,
      schemaId: row.schema_id,
      state: row.state === "inactive" ? "inactive" : "active",
      stateChangedAt: row.state_changed_at ? new Date(row.state_changed_at) : undefined,
      traits: JSON.parse(row.traits) as Record<string, unknown>,
      metadataPublic:
        row.metadata_public === null ? null : (JSON.parse(row.metadata_public) as unknown),
      metadataAdmin:
        row.metadata_admin === null ? null : (JSON.parse(row.metadata_admin) as unknown),
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
      credentials: credentials
        .filter((c) => c.identity_id === id)
        .map((c): Credential => ({
          id: c.id,
          type: c.type,
          identifiers: identifiers.filter((i) => i.credential_id === c.id).map((i) => i.identifier),
          config: JSON.parse(c.config) as Record<string, unknown>,
          version: c.version,
          createdAt: new Date(c.created_at),
          updatedAt: new Date(c.updated_at),
        })),
      verifiableAddresses: verifiable
        .filter((a) => a.identity_id === id)
        .map((a): VerifiableAddress => ({
          id: a.id,
          value: a.value,
          verified: a.verified === 1,
          via: a.via === "sms" ? "sms" : "email",
          status: a.status as VerifiableAddress["status"],
          verifiedAt: a.verified_at ? new Date(a.verified_at) : undefined,
          createdAt: new Date(a.created_at),
          updatedAt: new Date(a.updated_at),
        })),
      recoveryAddresses: recovery
        .filter((a) => a.identity_id === id)
        .map((a): RecoveryAddress => ({
          id: a.id,
          value: a.value,
          via: a.via === "sms" ? "sms" : "email",
          createdAt: new Date(a.created_at),
          updatedAt: new Date(a.updated_at),
        })),
    };
    return [identity];
  });
}

export async function findIdentity(
  db: Executor,
  id: string,
  options: IdentityReadOptions = {},
): Promise<Identity | undefined> {
  const [identity] = await hydrate(db, [id], options);
  return identity;
}

/** Looks an identity up by a (normalised) credential identifier of the given type. */
export async function findIdentityByIdentifier(
  db: Executor,
  type: string,
  identifier: string,
): Promise<{ identity: Identity; credential: Credential } | undefined> {
  const row = await db
    .selectFrom("identity_credential_identifiers")
    .select(["identity_id", "credential_id"])
    .where("type", "=", type)
    .where("identifier", "=", identifier)
    .executeTakeFirst();
  if (!row) return undefined;
  const identity = await findIdentity(db, row.identity_id);
  const credential = identity?.credentials.find((c) => c.id === row.credential_id);
  return identity && credential ? { identity, credential } : undefined;
}

/** Kratos' list filters; at most one is set (the handler refuses combinations). */
export interface IdentityListFilter {
  ids?: string[] | undefined;
  /** A credential identifier, exact or (similar) as a prefix. */
  identifier?: { value: string; similar: boolean } | undefined;
  /** Identities of an organisation; this server has none, so the filter matches nothing. */
  organizationId?: string | undefined;
}

/** Keyset paging after an id (Kratos' identity page token), or legacy offset paging. */
export type IdentityPaging =
  | { kind: "keyset"; after: string; size: number }
  | { kind: "offset"; offset: number; limit: number };

// Kratos compares identifiers of these types normalised (like the password identifier) and those
// of social sign-in as given (persister_identity.go ListIdentities).
const normalisedIdentifierTypes = ["password", "code", "webauthn", "passkey"];
const rawIdentifierTypes = ["oidc", "saml"];

function likePrefix(value: string): string {
  return `${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One page of identities ordered by id, with whether more follow (keyset paging). */
export async function listIdentities(
  db: Executor,
  filter: IdentityListFilter,
  paging: IdentityPaging,
  normalise: (identifier: string) => string,
): Promise<{ identities: Identity[]; hasMore: boolean }> {
  if (filter.organizationId !== undefined) return { identities: [], hasMore: false };
  let query = db.selectFrom("identities").select("id").orderBy("id");
  if (filter.ids) query = query.where("id", "in", filter.ids.length > 0 ? filter.ids : [""]);
  const identifier = filter.identifier;
  if (identifier) {
    const normalised = normalise(identifier.value);
    query = query.where("id", "in", (eb) =>
      eb
        .selectFrom("identity_credential_identifiers")
        .select("identity_id")
        .where((w) =>
          identifier.similar
            ? w.or([
                w.and([
                  w("type", "in", normalisedIdentifierTypes),
                  w(
                    sql<string>`identifier`,
                    "like",
                    sql<string>`${likePrefix(normalised)} escape '\\'`,
                  ),
                ]),
                w.and([
                  w("type", "in", rawIdentifierTypes),
                  w(
                    sql<string>`identifier`,
                    "like",
                    sql<string>`${likePrefix(identifier.value)} escape '\\'`,
                  ),
                ]),
              ])
            : w.or([
                w.and([
                  w("type", "in", normalisedIdentifierTypes),
                  w("identifier", "=", normalised),
                ]),
                w.and([
                  w("type", "in", rawIdentifierTypes),
                  w("identifier", "=", identifier.value),
                ]),
              ]),
        ),
    );
  }
  if (paging.kind === "keyset") {
    const rows = await query
      .where("id", ">", paging.after)
      .limit(paging.size + 1)
      .execute();
    const ids = rows.map((row) => row.id);
    return {
      identities: await hydrate(db, ids.slice(0, paging.size)),
      hasMore: ids.length > paging.size,
    };
  }
  const rows = await query.limit(paging.limit).offset(paging.offset).execute();
  return {
    identities: await hydrate(
      db,
      rows.map((row) => row.id),
    ),
    hasMore: false,
  };
}

export async function countIdentities(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("identities")
    .select((eb) => eb.fn.countAll<number>().as("total"))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Deletes the identity; credentials, addresses and sessions go with it (foreign-key cascade). */
export async function deleteIdentity(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom("identities").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Rewrites one credential's config (e.g. a backup code marked used) without touching the rest. */
export async function updateCredentialConfig(
  db: Executor,
  credentialId: string,
  config: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await db
    .updateTable("identity_credentials")
    .set({ config: JSON.stringify(config), updated_at: now.toISOString() })
    .where("id", "=", credentialId)
    .execute();
}
