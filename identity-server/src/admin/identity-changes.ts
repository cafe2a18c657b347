import { randomUUID } from "node:crypto";
import type { ServerContext } from "../context.ts";
import { badRequest, conflict, HerodotError } from "../http/errors.ts";
import { withTraits } from "../identity/apply-traits.ts";
import type { Identity, RecoveryAddress, VerifiableAddress } from "../identity/identity.ts";
import { normalizeAddress } from "../identity/normalize.ts";
import { hashPassword, importedHashProblem } from "../methods/password/hasher.ts";
import { DuplicateIdentityError, updateIdentity } from "../store/identities.ts";
import { deleteTrustedDevicesOf } from "../store/trusted-devices.ts";
import { ValidationError } from "../ui/validation-error.ts";
import type { GivenAddress, PasswordImport } from "./create-identity-body.ts";

// The building blocks POST, PUT, PATCH and the batch import share: turn what an administrator
// sent into a valid identity the way Kratos' identity manager does (validate the traits, derive
// identifiers and addresses, keep the state of addresses that stay).

/** Kratos' credential types; `include_credential` and patched credentials must name one. */
export const credentialTypes = new Set([
  "password",
  "oidc",
  "totp",
  "lookup_secret",
  "webauthn",
  "code",
  "passkey",
  "saml",
]);

/** Traits that break the identity schema; a batch import reports these per identity. */
export class InvalidTraitsError extends HerodotError {}

/** Kratos' admin endpoints answer schema errors as a 400 whose reason lists the violations. */
function validationToBadRequest(error: ValidationError): InvalidTraitsError {
  const reasons = error.messages.map((m) => `${m.field || "#"}: ${m.message.text}`);
  return new InvalidTraitsError(400, { reason: reasons.join("\n") });
}

const hashProblems = {
  "unknown-format": "The imported password does not match any known hash format.",
  unparseable: "The imported password hash could not be parsed.",
  "out-of-bounds":
    "The imported password hash declares cost parameters that exceed the bounds enforced by Ory. Re-hash the password with a more conservative configuration before importing.",
} as const;

/** Sets (or replaces) the password credential; identifiers are derived with the traits later. */
export async function importPassword(
  identity: Identity,
  given: PasswordImport,
  now: Date,
): Promise<void> {
  let hashed: string;
  if (given.password !== undefined) {
    hashed = await hashPassword(given.password);
  } else {
    hashed = given.hashedPassword ?? "";
    const problem = importedHashProblem(hashed);
    if (problem) throw badRequest(hashProblems[problem]);
  }
  const existing = identity.credentials.find((c) => c.type === "password");
  const credential = {
    id: existing?.id ?? randomUUID(),
    type: "password",
    identifiers: existing?.identifiers ?? [],
    config: { ...existing?.config, hashed_password: hashed },
    version: 0,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  identity.credentials = [...identity.credentials.filter((c) => c.type !== "password"), credential];
}

/**
 * The identity with the state and metadata an administrator sent (PUT and PATCH): the state's
 * change time moves only when the state changes; credentials are copied for the caller to change.
 */
export function withAdminFields(
  original: Identity,
  given: {
    state: Identity["state"];
    metadataPublic: Identity["metadataPublic"];
    metadataAdmin: Identity["metadataAdmin"];
  },
  now: Date,
): Identity {
  return {
    ...original,
    state: given.state,
    stateChangedAt: given.state === original.state ? original.stateChangedAt : now,
    metadataPublic: given.metadataPublic ?? null,
    metadataAdmin: given.metadataAdmin ?? null,
    credentials: [...original.credentials],
  };
}

/** A given address normalised, and the stored one it is (same value and channel), if any. */
function matchGiven<Stored extends { value: string; via: string }>(
  address: GivenAddress,
  existing: Stored[],
): { via: "email" | "sms"; value: string; known: Stored | undefined } {
  const via = address.via === "sms" ? "sms" : "email";
  const value = normalizeAddress(address.value, via);
  return { via, value, known: existing.find((a) => a.value === value && a.via === via) };
}

/** Given verifiable addresses as stored objects (a matching existing one keeps its id). */
export function givenVerifiableAddresses(
  given: GivenAddress[],
  existing: VerifiableAddress[],
  now: Date,
): VerifiableAddress[] {
  return given.map((address): VerifiableAddress => {
    const { via, value, known } = matchGiven(address, existing);
    const status = ["pending", "sent", "completed"].includes(address.status ?? "")
      ? (address.status as VerifiableAddress["status"])
      : address.verified
        ? "completed"
        : "pending";
    if (known && known.verified === address.verified && known.status === status) return known;
    const verifiedAt = address.verifiedAt ? new Date(address.verifiedAt) : undefined;
    return {
      id: known?.id ?? randomUUID(),
      value,
      via,
      verified: address.verified,
      status,
      verifiedAt: address.verified
        ? verifiedAt && !Number.isNaN(verifiedAt.getTime())
          ? verifiedAt
          : (known?.verifiedAt ?? now)
        : undefined,
      createdAt: known?.createdAt ?? now,
      updatedAt: now,
    };
  });
}

export function givenRecoveryAddresses(
  given: GivenAddress[],
  existing: RecoveryAddress[],
  now: Date,
): RecoveryAddress[] {
  return given.map((address): RecoveryAddress => {
    const { via, value, known } = matchGiven(address, existing);
    return {
      id: known?.id ?? randomUUID(),
      value,
      via,
      createdAt: known?.createdAt ?? now,
      updatedAt: now,
    };
  });
}

/**
 * Validates the traits (400 listing the violations) and derives the password identifiers and the
 * addresses from them. Addresses already on `base` (stored, or given by the administrator) keep
 * their verification state when the traits still produce them; the others are dropped.
 */
export function validatedIdentity(
  ctx: ServerContext,
  base: Identity,
  traits: unknown,
  now: Date,
): Identity {
  if (traits === null || typeof traits !== "object" || Array.isArray(traits)) {
    // The identity schema describes the traits object; anything else fails it at the top.
    const got =
      traits === undefined || traits === null
        ? "null"
        : Array.isArray(traits)
          ? "array"
          : typeof traits;
    throw new InvalidTraitsError(400, { reason: `traits: expected object, but got ${got}` });
  }
  try {
    ctx.schema.validateTraits(traits);
  } catch (error) {
    if (error instanceof ValidationError) throw validationToBadRequest(error);
    throw error;
  }
  return withTraits(ctx.schema, base, traits as Record<string, unknown>, now);
}

const secondFactorTypes = ["totp", "lookup_secret", "code", "webauthn"];

function secondFactorsOf(identity: Identity): string {
  return identity.credentials
    .filter((c) => secondFactorTypes.includes(c.type))
    .map((c) => `${c.type}:${JSON.stringify(c.config)}`)
    .sort()
    .join("|");
}

/**
 * Writes an updated identity. A clash with another identity is 409, as Kratos answers; a changed
 * or removed second factor forgets the identity's trusted devices (as the settings flow does).
 */
export async function saveUpdatedIdentity(
  ctx: ServerContext,
  before: Identity,
  after: Identity,
): Promise<void> {
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await updateIdentity(trx, after);
      if (secondFactorsOf(before) !== secondFactorsOf(after)) {
        await deleteTrustedDevicesOf(trx, after.id);
      }
    });
  } catch (error) {
    if (error instanceof DuplicateIdentityError) {
      throw conflict("This identity conflicts with another identity that already exists.");
    }
    throw error;
  }
}
