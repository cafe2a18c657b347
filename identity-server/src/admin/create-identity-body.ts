import { badRequest, HerodotError } from "../http/errors.ts";

/** The password part of `credentials` in create and update bodies. */
export interface PasswordImport {
  password?: string;
  hashedPassword?: string;
}

/** An address as an administrator may give it; addresses the traits produce keep these fields. */
export interface GivenAddress {
  value: string;
  via: string | undefined;
  verified: boolean;
  status: string | undefined;
  verifiedAt: string | undefined;
}

export interface CreateIdentityBody {
  schemaId: string;
  traits: Record<string, unknown>;
  state: "active" | "inactive" | undefined;
  metadataPublic: unknown;
  metadataAdmin: unknown;
  password: PasswordImport | undefined;
  verifiableAddresses: GivenAddress[] | undefined;
  recoveryAddresses: GivenAddress[] | undefined;
}

export interface UpdateIdentityBody {
  schemaId: string | undefined;
  traits: unknown;
  state: string | undefined;
  metadataPublic: unknown;
  metadataAdmin: unknown;
  password: PasswordImport | undefined;
}

const topLevelFields = new Set([
  "schema_id",
  "traits",
  "state",
  "metadata_public",
  "metadata_admin",
  "credentials",
  "verifiable_addresses",
  "recovery_addresses",
  "external_id",
  "organization_id",
]);

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Go's strict decoder error for an unknown field, which Kratos puts in `message`. */
function unknownField(name: string): HerodotError {
  return new HerodotError(400, { message: `json: unknown field ${JSON.stringify(name)}` });
}

/**
 * `credentials` of a create or update body. Only passwords can be imported here (plain, or an
 * argon2/bcrypt hash); the other types Kratos imports need methods this server does not have.
 */
function parseCredentials(raw: unknown, strict: boolean): PasswordImport | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) throw badRequest("credentials must be a JSON object.");
  const known = ["password", "oidc", "saml", "totp", "lookup_secret", "webauthn", "passkey"];
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) {
      if (strict) throw unknownField(key);
      continue;
    }
    if (key !== "password" && raw[key] !== null) {
      throw badRequest(`Importing ${key} credentials is not supported.`);
    }
  }
  const pw = raw.password;
  if (pw === undefined || pw === null) return undefined;
  if (!isObject(pw) || !isObject(pw.config)) {
    throw badRequest("credentials.password.config must be an object.");
  }
  if (strict) for (const key of Object.keys(pw)) if (key !== "config") throw unknownField(key);
  const config = pw.config;
  for (const key of Object.keys(config)) {
    if (key === "password" || key === "hashed_password") continue;
    if (key === "use_password_migration_hook") {
      if (config[key] === true) {
        throw badRequest("This server has no password migration hook; import a hash instead.");
      }
      continue;
    }
    if (strict) throw unknownField(key);
  }
  for (const key of ["password", "hashed_password"]) {
    if (config[key] !== undefined && typeof config[key] !== "string") {
      throw badRequest(`credentials.password.config.${key} must be a string.`);
    }
  }
  const plain = typeof config.password === "string" ? config.password : "";
  const hashed = typeof config.hashed_password === "string" ? config.hashed_password : "";
  // Kratos hashes a given plain password and ignores hashed_password then.
  if (plain !== "") return { password: plain };
  if (hashed !== "") return { hashedPassword: hashed };
  return undefined;
}

/** `verifiable_addresses` / `recovery_addresses` as given (also read back from a patched identity). */
export function parseAddresses(raw: unknown, field: string): GivenAddress[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw badRequest(`${field} must be an array.`);
  return raw.map((item, i) => {
    if (!isObject(item) || typeof item.value !== "string") {
      throw badRequest(`${field}[${i}] must be an object with a string "value".`);
    }
    return {
      value: item.value,
      via: typeof item.via === "string" ? item.via : undefined,
      verified: item.verified === true,
      status: typeof item.status === "string" ? item.status : undefined,
      verifiedAt: typeof item.verified_at === "string" ? item.verified_at : undefined,
    };
  });
}

function parseState(raw: unknown): "active" | "inactive" | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (raw !== "active" && raw !== "inactive") throw badRequest("identity state is not valid");
  return raw;
}

function parseSchemaId(raw: unknown): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (raw !== "default") {
    throw badRequest(`Schema ${JSON.stringify(raw)} is unknown; only "default" exists.`);
  }
  return raw;
}

/**
 * Parses POST /admin/identities (and each `create` of PATCH /admin/identities) strictly: unknown
 * fields are refused, as Kratos' strict decoder does. `external_id` and `organization_id` are
 * accepted and ignored (this server has neither).
 */
export function parseCreateIdentityBody(raw: unknown): CreateIdentityBody {
  if (!isObject(raw)) throw badRequest("The request body must be a JSON object.");
  for (const key of Object.keys(raw)) if (!topLevelFields.has(key)) throw unknownField(key);
  parseSchemaId(raw.schema_id);
  if (!isObject(raw.traits)) throw badRequest("traits must be a JSON object.");
  return {
    schemaId: "default",
    traits: raw.traits,
    state: parseState(raw.state),
    metadataPublic: raw.metadata_public,
    metadataAdmin: raw.metadata_admin,
    password: parseCredentials(raw.credentials, true),
    verifiableAddresses: parseAddresses(raw.verifiable_addresses, "verifiable_addresses"),
    recoveryAddresses: parseAddresses(raw.recovery_addresses, "recovery_addresses"),
  };
}

/**
 * Parses PUT /admin/identities/{id}. Kratos decodes it leniently (unknown fields ignored); traits
 * and both metadata fields replace the stored ones, absent metadata clears them.
 */
export function parseUpdateIdentityBody(raw: unknown): UpdateIdentityBody {
  if (!isObject(raw)) throw badRequest("The request body must be a JSON object.");
  if (raw.state !== undefined && typeof raw.state !== "string") {
    throw badRequest("identity state is not valid");
  }
  return {
    schemaId: parseSchemaId(raw.schema_id),
    traits: raw.traits,
    state: raw.state === "" ? undefined : raw.state,
    metadataPublic: raw.metadata_public,
    metadataAdmin: raw.metadata_admin,
    password: parseCredentials(raw.credentials, false),
  };
}
