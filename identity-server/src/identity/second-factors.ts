import type { SecondFactorConfig } from "../config/config.ts";
import { isTotpUrl } from "../methods/totp/totp-key.ts";
import type { Credential, Identity } from "./identity.ts";

/** One backup code as stored: its HMAC (never the code itself) and when it was used. */
export interface StoredLookupCode {
  code: string;
  used_at: string | null;
}

/** An address codes are sent to for the second factor (Kratos' `identityCredentialsCodeAddress`). */
export interface CodeMfaAddress {
  address: string;
  channel: "email" | "sms";
}

export function credentialOf(identity: Identity, type: string): Credential | undefined {
  return identity.credentials.find((c) => c.type === type);
}

/** The linked authenticator app's key URI, if the identity has a usable one. */
export function totpUrlOf(identity: Identity): string | undefined {
  const url = credentialOf(identity, "totp")?.config.totp_url;
  return isTotpUrl(url) ? url : undefined;
}

export function lookupCodesOf(identity: Identity): StoredLookupCode[] {
  const codes = credentialOf(identity, "lookup_secret")?.config.recovery_codes;
  if (!Array.isArray(codes)) return [];
  return codes.filter(
    (c): c is StoredLookupCode =>
      typeof c === "object" && c !== null && typeof (c as StoredLookupCode).code === "string",
  );
}

/**
 * The addresses the user turned codes on for, as long as each is still a verified address of the
 * identity (a changed or unverified address silently stops being a second factor).
 */
export function codeMfaAddressesOf(identity: Identity): CodeMfaAddress[] {
  const stored = credentialOf(identity, "code")?.config.addresses;
  if (!Array.isArray(stored)) return [];
  return stored.filter(
    (entry): entry is CodeMfaAddress =>
      typeof entry === "object" &&
      entry !== null &&
      identity.verifiableAddresses.some(
        (a) =>
          a.verified &&
          a.value === (entry as CodeMfaAddress).address &&
          a.via === (entry as CodeMfaAddress).channel,
      ),
  );
}

export interface SecondFactors {
  totp: boolean;
  lookupSecret: boolean;
  code: boolean;
}

/** Which second factors the identity can use (Kratos' CountActiveMultiFactorCredentials). */
export function secondFactorsOf(identity: Identity, config: SecondFactorConfig): SecondFactors {
  return {
    totp: totpUrlOf(identity) !== undefined,
    lookupSecret: lookupCodesOf(identity).length > 0,
    code: config.codeMfaEnabled && codeMfaAddressesOf(identity).length > 0,
  };
}

export function hasSecondFactor(identity: Identity, config: SecondFactorConfig): boolean {
  const factors = secondFactorsOf(identity, config);
  return factors.totp || factors.lookupSecret || factors.code;
}

/**
 * Kratos' SetAvailableAAL: aal2 when the identity has an active second factor, aal1 when it has a
 * first factor, aal0 otherwise.
 */
export function availableAal(
  identity: Identity,
  config: SecondFactorConfig,
): "aal0" | "aal1" | "aal2" {
  if (hasSecondFactor(identity, config)) return "aal2";
  return credentialOf(identity, "password") ? "aal1" : "aal0";
}
