import type {
  Credential,
  Identity,
  RecoveryAddress,
  VerifiableAddress,
} from "../identity/identity.ts";
import type { Executor } from "./schema.ts";

// Reading identities back from their rows, whole.

/** What `hydrate` may leave out when the caller does not need it. */
export interface IdentityReadOptions {
  /**
   * false: credentials come without their identifiers (one query less; whoami needs only their
   * types and configs, for the AAL policy).
   */
  credentialIdentifiers?: boolean;
}
/** The identities of these ids (in this order; ids not found are left out), with all their rows. */
export async function hydrate(
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

export async function countIdentities(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("identities")
    .select((eb) => eb.fn.countAll<number>().as("total"))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
