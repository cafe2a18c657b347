import { TOTP, URI } from "otpauth";
import { credentialOf, type Identity } from "./identity.ts";

/** The `otpauth://totp/…` key URI read, or undefined for anything else (HOTP, garbage). */
export function parseTotpUrl(url: string): TOTP | undefined {
  try {
    const parsed = URI.parse(url);
    return parsed instanceof TOTP ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function isTotpUrl(url: unknown): url is string {
  return typeof url === "string" && parseTotpUrl(url) !== undefined;
}

/** The linked authenticator app's key URI, if the identity has a usable one. */
export function totpUrlOf(identity: Identity): string | undefined {
  const url = credentialOf(identity, "totp")?.config.totp_url;
  return isTotpUrl(url) ? url : undefined;
}
