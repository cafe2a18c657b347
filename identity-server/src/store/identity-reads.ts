import type {
  Credential,
  Identity,
  RecoveryAddress,
  VerifiableAddress,
} from "../identity/identity.ts";
import { CompiledQuery, type Selectable } from "kysely";
import type { Database, Executor } from "./schema.ts";

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
  return assemble(ids, { rows, credentials, identifiers, verifiable, recovery });
}

type Rows<T extends keyof Database> = Selectable<Database[T]>[];

/** An identity's rows, as read by `hydrate` or `findIdentity`. */
interface IdentityRows {
  rows: Rows<"identities">;
  credentials: Rows<"identity_credentials">;
  identifiers: Rows<"identity_credential_identifiers">;
  verifiable: Rows<"identity_verifiable_addresses">;
  recovery: Rows<"identity_recovery_addresses">;
}

function assemble(
  ids: string[],
  { rows, credentials, identifiers, verifiable, recovery }: IdentityRows,
): Identity[] {
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

// One identity with all its rows in one statement (the hot path of whoami and every sign-in): the
// credentials, identifiers and addresses come as JSON arrays of rows, in the order `hydrate` reads
// them, and the text is fixed, so Kysely neither builds nor compiles anything per call.
const rowsOf = (table: string, columns: string[], order: string) =>
  `(select json_group_array(json_object(${columns.map((c) => `'${c}', ${c}`).join(", ")}) order by ${order}) from ${table} where identity_id = i.id)`;
const credentialColumns = [
  "id",
  "identity_id",
  "type",
  "config",
  "version",
  "created_at",
  "updated_at",
];
const identifierColumns = [
  "id",
  "credential_id",
  "identity_id",
  "type",
  "identifier",
  "created_at",
];
const addressColumns = ["id", "identity_id", "value", "via", "created_at", "updated_at"];
const verifiableColumns = [...addressColumns, "verified", "status", "verified_at"];
const identityRowsSql = (withIdentifiers: boolean) =>
  `i.*, ${rowsOf("identity_credentials", credentialColumns, "type")} as credentials_json, ` +
  `${withIdentifiers ? rowsOf("identity_credential_identifiers", identifierColumns, "identifier") : "'[]'"} as identifiers_json, ` +
  `${rowsOf("identity_verifiable_addresses", verifiableColumns, "created_at, via")} as verifiable_json, ` +
  `${rowsOf("identity_recovery_addresses", addressColumns, "created_at, via")} as recovery_json`;
const oneIdentityStatements = {
  withIdentifiers: `select ${identityRowsSql(true)} from identities i where i.id = ?`,
  withoutIdentifiers: `select ${identityRowsSql(false)} from identities i where i.id = ?`,
};
// A sign-in's look-up: the identifier (unique per type) and its identity in the same statement.
const byIdentifierStatement =
  `select c.credential_id as found_credential_id, ${identityRowsSql(true)} ` +
  `from identity_credential_identifiers c join identities i on i.id = c.identity_id ` +
  `where c.type = ? and c.identifier = ?`;

type OneIdentityRow = Selectable<Database["identities"]> & {
  credentials_json: string;
  identifiers_json: string;
  verifiable_json: string;
  recovery_json: string;
};

export async function findIdentity(
  db: Executor,
  id: string,
  options: IdentityReadOptions = {},
): Promise<Identity | undefined> {
  const text =
    options.credentialIdentifiers === false
      ? oneIdentityStatements.withoutIdentifiers
      : oneIdentityStatements.withIdentifiers;
  const { rows } = await db.executeQuery<OneIdentityRow>(CompiledQuery.raw(text, [id]));
  const row = rows[0];
  return row ? identityOf(row) : undefined;
}

function identityOf(row: OneIdentityRow): Identity | undefined {
  const { credentials_json, identifiers_json, verifiable_json, recovery_json, ...identityRow } =
    row;
  const [identity] = assemble([identityRow.id], {
    rows: [identityRow],
    credentials: JSON.parse(credentials_json) as IdentityRows["credentials"],
    identifiers: JSON.parse(identifiers_json) as IdentityRows["identifiers"],
    verifiable: JSON.parse(verifiable_json) as IdentityRows["verifiable"],
    recovery: JSON.parse(recovery_json) as IdentityRows["recovery"],
  });
  return identity;
}

/** Looks an identity up by a (normalised) credential identifier of the given type. */
export async function findIdentityByIdentifier(
  db: Executor,
  type: string,
  identifier: string,
): Promise<{ identity: Identity; credential: Credential } | undefined> {
  const { rows } = await db.executeQuery<OneIdentityRow & { found_credential_id: string }>(
    CompiledQuery.raw(byIdentifierStatement, [type, identifier]),
  );
  const row = rows[0];
  if (!row) return undefined;
  const { found_credential_id, ...identityRow } = row;
  const identity = identityOf(identityRow);
  const credential = identity?.credentials.find((c) => c.id === found_credential_id);
  return identity && credential ? { identity, credential } : undefined;
}

export async function countIdentities(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("identities")
    .select((eb) => eb.fn.countAll<number>().as("total"))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
