import { randomUUID } from "node:crypto";
import type { ServerContext } from "../context.ts";
import { badRequest, HerodotError } from "../http/errors.ts";
import { identityJson, type Credential, type Identity } from "../identity/identity.ts";
import { importedHashProblem } from "../methods/password/hasher.ts";
import { parseAddresses } from "./create-identity-body.ts";
import {
  credentialTypes,
  givenRecoveryAddresses,
  givenVerifiableAddresses,
  validatedIdentity,
  withAdminFields,
} from "./identity-changes.ts";
import { applyJsonPatch, JsonPatchError } from "./json-patch.ts";

// Kratos' deny list for identity patches (identity/handler.go patch): the id, the credentials map
// as a whole and the social sign-in credentials. Everything else of the admin JSON may change —
// traits, state, metadata, addresses, and the config of other credentials.
const deniedPaths = [
  "/id",
  "/stateChangedAt",
  "/credentials",
  "/credentials/oidc",
  "/credentials/oidc/**",
  "/credentials/saml",
  "/credentials/saml/**",
];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function readCredential(type: string, raw: unknown, original: Identity, now: Date): Credential {
  if (!credentialTypes.has(type))
    throw badRequest(`credentials.${type} is not a credentials type.`);
  if (!isObject(raw)) throw badRequest(`credentials.${type} must be a JSON object.`);
  if (raw.type !== type) {
    const got = typeof raw.type === "string" ? raw.type : "";
    throw badRequest(`credentials.${type}.type must equal "${type}", got "${got}"`);
  }
  const existing = original.credentials.find((c) => c.type === type);
  const config = isObject(raw.config) ? raw.config : {};
  const identifiers = Array.isArray(raw.identifiers)
    ? raw.identifiers.filter((i): i is string => typeof i === "string")
    : (existing?.identifiers ?? []);
  const changed = !existing || !sameJson(existing.config, config);
  const hashed = config.hashed_password;
  if (type === "password" && changed && hashed !== existing?.config.hashed_password) {
    const problem = typeof hashed === "string" ? importedHashProblem(hashed) : "unknown-format";
    if (problem) throw badRequest("The patched password hash is not an argon2 or bcrypt hash.");
  }
  return {
    id: existing?.id ?? randomUUID(),
    type,
    identifiers,
    config,
    version: existing?.version ?? 0,
    createdAt: existing?.createdAt ?? now,
    updatedAt: changed ? now : (existing?.updatedAt ?? now),
  };
}

function readCredentials(raw: unknown, original: Identity, now: Date): Credential[] {
  if (raw === undefined || raw === null) return [];
  if (!isObject(raw)) throw badRequest("credentials must be a JSON object.");
  return Object.entries(raw).map(([type, value]) => readCredential(type, value, original, now));
}

function readState(raw: unknown, original: Identity): Identity["state"] {
  if (raw === original.state) return original.state;
  if (raw === "active" || raw === "inactive") return raw;
  throw badRequest(
    `The supplied state ('${typeof raw === "string" ? raw : JSON.stringify(raw)}') was not valid. Valid states are ('active', 'inactive').`,
  );
}

/**
 * PATCH /admin/identities/{id}: applies the RFC 6902 patch to the identity's admin JSON (with every
 * credential's config) and reads the result back through the same validation as an update.
 */
export function patchedIdentity(
  ctx: ServerContext,
  original: Identity,
  patch: unknown,
  now: Date,
): Identity {
  const document = identityJson(original, {
    publicBaseUrl: ctx.config.publicBaseUrl,
    admin: { includeConfigFor: original.credentials.map((c) => c.type) },
  });
  let patched: Json;
  try {
    patched = applyJsonPatch(document, patch, deniedPaths);
  } catch (error) {
    if (!(error instanceof JsonPatchError)) throw error;
    throw new HerodotError(400, { reason: "failed to apply JSON patch", message: error.message });
  }
  if (patched.schema_id !== original.schemaId) {
    throw badRequest(
      `Schema ${JSON.stringify(patched.schema_id)} is unknown; only "default" exists.`,
    );
  }
  const base: Identity = {
    ...withAdminFields(
      original,
      {
        state: readState(patched.state, original),
        metadataPublic: patched.metadata_public,
        metadataAdmin: patched.metadata_admin,
      },
      now,
    ),
    credentials: readCredentials(patched.credentials, original, now),
    verifiableAddresses: givenVerifiableAddresses(
      parseAddresses(patched.verifiable_addresses, "verifiable_addresses") ?? [],
      original.verifiableAddresses,
      now,
    ),
    recoveryAddresses: givenRecoveryAddresses(
      parseAddresses(patched.recovery_addresses, "recovery_addresses") ?? [],
      original.recoveryAddresses,
      now,
    ),
  };
  return validatedIdentity(ctx, base, patched.traits, now);
}
