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

/**
 * The credential's identifiers: the traits the schema marks `credentials.webauthn.identifier`,
 * normalised as Kratos does. Kratos refuses a key when there is none.
 */
export function webauthnIdentifiersOf(schema: IdentitySchema, identity: Identity): string[] {
  return schema.derive(identity.traits).webauthnIdentifiers;
}
