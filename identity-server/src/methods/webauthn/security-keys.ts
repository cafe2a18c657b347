import type { IdentitySchema } from "../../identity/identity-schema.ts";
import type { Identity } from "../../identity/identity.ts";
import {
  webAuthnRecordsOf,
  type WebAuthnCredentialRecord,
} from "../webauthn-base/credential-records.ts";

// The identity's security keys: the authenticators of its `webauthn` credential.

/**
 * The keys that count as a second factor (Kratos' ToWebAuthnFiltered for aal2 and
 * CountActiveMultiFactorCredentials): those not registered for passwordless sign-in.
 */
export function secondFactorKeysOf(identity: Identity): WebAuthnCredentialRecord[] {
  return webAuthnRecordsOf(identity, "webauthn").filter((record) => !record.is_passwordless);
}

/** The identity's `webauthn` credential, if it has one. */
export function webauthnCredentialOf(identity: Identity) {
  return identity.credentials.find((c) => c.type === "webauthn");
}

interface WebAuthnExtension {
  credentials?: { webauthn?: { identifier?: boolean } };
}

/**
 * The credential's identifiers: the traits the schema marks `credentials.webauthn.identifier`,
 * lower-cased as Kratos normalises them. Kratos refuses a key when there is none.
 */
export function webauthnIdentifiersOf(schema: IdentitySchema, identity: Identity): string[] {
  const identifiers: string[] = [];
  for (const path of schema.traitPaths) {
    const extension = path.extension as WebAuthnExtension;
    if (!extension.credentials?.webauthn?.identifier) continue;
    const value = path.name
      .split(".")
      .slice(1)
      .reduce<unknown>(
        (at, key) =>
          at !== null && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined,
        identity.traits,
      );
    if (typeof value !== "string" || value.trim() === "") continue;
    const identifier = value.trim().toLowerCase();
    if (!identifiers.includes(identifier)) identifiers.push(identifier);
  }
  return identifiers;
}
