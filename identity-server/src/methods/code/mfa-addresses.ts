import { credentialOf, type Identity } from "../../identity/identity.ts";

/** An address codes are sent to for the second factor (Kratos' `identityCredentialsCodeAddress`). */
export interface CodeMfaAddress {
  address: string;
  channel: "email" | "sms";
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
