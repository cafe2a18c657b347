import { badRequest } from "../http/errors.ts";
import { HerodotError } from "../http/errors.ts";

export interface CreateIdentityBody {
  schemaId: string;
  traits: Record<string, unknown>;
  state: "active" | "inactive" | undefined;
  metadataPublic: unknown;
  metadataAdmin: unknown;
  password: { password?: string; hashedPassword?: string } | undefined;
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
 * Parses POST /admin/identities strictly (unknown fields are refused, as Kratos' strict decoder
 * does). Addresses are derived from the traits; given ones are accepted but not imported yet.
 */
export function parseCreateIdentityBody(raw: unknown): CreateIdentityBody {
  if (!isObject(raw)) throw badRequest("The request body must be a JSON object.");
  for (const key of Object.keys(raw)) if (!topLevelFields.has(key)) throw unknownField(key);
  const schemaId = raw.schema_id;
  if (schemaId !== undefined && schemaId !== "default") {
    throw badRequest(`Schema ${JSON.stringify(schemaId)} is unknown; only "default" exists.`);
  }
  if (!isObject(raw.traits)) throw badRequest("traits must be a JSON object.");
  const state = raw.state;
  if (state !== undefined && state !== "active" && state !== "inactive") {
    throw badRequest(`identity state is not valid`);
  }
  let password: CreateIdentityBody["password"];
  if (raw.credentials !== undefined) {
    if (!isObject(raw.credentials)) throw badRequest("credentials must be a JSON object.");
    for (const key of Object.keys(raw.credentials)) {
      if (key !== "password" && key !== "oidc" && key !== "saml") throw unknownField(key);
      if (key !== "password") throw badRequest(`Importing ${key} credentials is not supported.`);
    }
    const pw = raw.credentials.password;
    if (pw !== undefined) {
      if (!isObject(pw) || !isObject(pw.config))
        throw badRequest("credentials.password.config must be an object.");
      for (const key of Object.keys(pw)) if (key !== "config") throw unknownField(key);
      const config = pw.config;
      for (const key of Object.keys(config)) {
        if (
          key !== "password" &&
          key !== "hashed_password" &&
          key !== "use_password_migration_hook"
        ) {
          throw unknownField(key);
        }
      }
      const plain =
        typeof config.password === "string" && config.password !== "" ? config.password : undefined;
      const hashed =
        typeof config.hashed_password === "string" && config.hashed_password !== ""
          ? config.hashed_password
          : undefined;
      if (plain !== undefined || hashed !== undefined) {
        password = hashed !== undefined ? { hashedPassword: hashed } : { password: plain ?? "" };
      }
    }
  }
  return {
    schemaId: "default",
    traits: raw.traits,
    state,
    metadataPublic: raw.metadata_public,
    metadataAdmin: raw.metadata_admin,
    password,
  };
}
