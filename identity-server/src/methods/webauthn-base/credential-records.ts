import type { Credential, Identity } from "../../identity/identity.ts";

// WebAuthn credentials as Kratos stores them (identity.CredentialsWebAuthnConfig): the identity's
// `passkey` or `webauthn` credential holds a list of authenticators. Go encodes []byte as standard
// base64 with padding, so ids, keys, AAGUIDs and the user handle are standard base64 here too,
// while the WebAuthn JSON on the wire uses base64url.

/** One registered authenticator (Kratos' identityCredentialsWebAuthn). */
export interface WebAuthnCredentialRecord {
  /** The credential id, standard base64. */
  id: string;
  /** The COSE public key, standard base64. */
  public_key: string;
  attestation_type: string;
  authenticator: { aaguid: string; sign_count: number; clone_warning: boolean };
  display_name: string;
  /** RFC 3339 in UTC, whole seconds (Kratos rounds it). */
  added_at: string;
  is_passwordless: boolean;
  flags?: {
    user_present: boolean;
    user_verified: boolean;
    backup_eligible: boolean;
    backup_state: boolean;
  };
  transport?: string[];
}

/** The credential's config (Kratos' CredentialsWebAuthnConfig). */
export interface WebAuthnCredentialsConfig {
  credentials: WebAuthnCredentialRecord[];
  /** The WebAuthn user handle, standard base64 (passkeys; Kratos' webauthn stores it too). */
  user_handle?: string;
}

export type WebAuthnCredentialType = "passkey" | "webauthn";

/** base64url (the wire) → standard base64 with padding (the store). */
export function toStoredBase64(base64url: string): string {
  return Buffer.from(base64url, "base64url").toString("base64");
}

/** Standard base64 (the store) → base64url without padding (the wire). */
export function toWireBase64url(base64: string): string {
  return Buffer.from(base64, "base64").toString("base64url");
}

function isRecord(value: unknown): value is WebAuthnCredentialRecord {
  const v = value as Partial<WebAuthnCredentialRecord> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.id === "string" &&
    typeof v.public_key === "string" &&
    typeof v.authenticator?.sign_count === "number"
  );
}

/** The stored config of a `passkey`/`webauthn` credential; unreadable entries are left out. */
export function webAuthnConfigOf(credential: Credential | undefined): WebAuthnCredentialsConfig {
  const config = credential?.config ?? {};
  const list = Array.isArray(config.credentials) ? config.credentials.filter(isRecord) : [];
  const userHandle = typeof config.user_handle === "string" ? config.user_handle : undefined;
  return { credentials: list, ...(userHandle ? { user_handle: userHandle } : {}) };
}

/** The identity's authenticators of one type (empty when it has none). */
export function webAuthnRecordsOf(
  identity: Identity,
  type: WebAuthnCredentialType,
): WebAuthnCredentialRecord[] {
  return webAuthnConfigOf(identity.credentials.find((c) => c.type === type)).credentials;
}

/** The record whose credential id (base64url from the wire) matches, if any. */
export function findRecord(
  records: readonly WebAuthnCredentialRecord[],
  credentialIdBase64url: string,
): WebAuthnCredentialRecord | undefined {
  const wanted = Buffer.from(credentialIdBase64url, "base64url");
  return records.find((record) => Buffer.from(record.id, "base64").equals(wanted));
}

/**
 * The record whose id, written as lower-case hex, is `hex`: Kratos' `passkey_remove` and
 * `webauthn_remove` buttons carry the id that way (`fmt.Sprintf("%x", c.ID)`).
 */
export function findRecordByHex(
  records: readonly WebAuthnCredentialRecord[],
  hex: string,
): WebAuthnCredentialRecord | undefined {
  return records.find((record) => Buffer.from(record.id, "base64").toString("hex") === hex);
}

/** The hex form of a record's id, as the remove buttons carry it. */
export function recordHexId(record: WebAuthnCredentialRecord): string {
  return Buffer.from(record.id, "base64").toString("hex");
}

/** Kratos' `added_at`: UTC, rounded to the second. */
export function addedAtOf(now: Date): string {
  return new Date(Math.round(now.getTime() / 1000) * 1000).toISOString().replace(".000Z", "Z");
}
