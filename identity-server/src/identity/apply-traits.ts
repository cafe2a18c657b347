import { randomUUID } from "node:crypto";
import type { IdentitySchema } from "./identity-schema.ts";
import type { Identity } from "./identity.ts";

/**
 * The identity with new (already validated) traits: password and security-key identifiers follow
 * the traits, addresses that stay keep their id and verification state, new ones start unverified
 * ("pending").
 */
export function withTraits(
  schema: IdentitySchema,
  identity: Identity,
  traits: Record<string, unknown>,
  now: Date,
): Identity {
  const derived = schema.derive(traits);
  return {
    ...identity,
    traits,
    updatedAt: now,
    credentials: identity.credentials.map((credential) =>
      credential.type === "password"
        ? { ...credential, identifiers: derived.passwordIdentifiers, updatedAt: now }
        : credential.type === "webauthn"
          ? { ...credential, identifiers: derived.webauthnIdentifiers, updatedAt: now }
          : credential,
    ),
    verifiableAddresses: derived.verifiableAddresses.map(
      (spec) =>
        identity.verifiableAddresses.find((a) => a.value === spec.value && a.via === spec.via) ?? {
          id: randomUUID(),
          value: spec.value,
          via: spec.via,
          verified: false,
          status: "pending",
          verifiedAt: undefined,
          createdAt: now,
          updatedAt: now,
        },
    ),
    recoveryAddresses: derived.recoveryAddresses.map(
      (spec) =>
        identity.recoveryAddresses.find((a) => a.value === spec.value && a.via === spec.via) ?? {
          id: randomUUID(),
          value: spec.value,
          via: spec.via,
          createdAt: now,
          updatedAt: now,
        },
    ),
  };
}

function identifierSet(identity: Identity): string {
  return identity.credentials
    .map((c) => `${c.type}:${[...c.identifiers].sort().join(",")}`)
    .sort()
    .join("|");
}

function addressSet(addresses: { value: string; via: string }[]): string {
  return addresses
    .map((a) => `${a.via}:${a.value}`)
    .sort()
    .join("|");
}

/**
 * Kratos' requiresPrivilegedAccess: a change to credentials (their identifiers) or to the
 * verifiable or recovery addresses may only be made by a privileged session.
 */
export function touchesProtectedFields(before: Identity, after: Identity): boolean {
  return (
    identifierSet(before) !== identifierSet(after) ||
    addressSet(before.verifiableAddresses) !== addressSet(after.verifiableAddresses) ||
    addressSet(before.recoveryAddresses) !== addressSet(after.recoveryAddresses)
  );
}
