import { randomInt } from "node:crypto";
import type { ServerContext } from "../../context.ts";
import type { Identity } from "../../identity/identity.ts";
import { webAuthnConfigOf, webAuthnRecordsOf } from "../webauthn-base/credential-records.ts";

const alphaNum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A new WebAuthn user handle as Kratos makes one for passkeys: 64 random letters and digits
 * (`randx.MustString(64, randx.AlphaNum)`). The passkey credential's identifier is this text, so
 * a discoverable login finds the identity by the handle the authenticator returns.
 */
export function newPasskeyUserHandle(): string {
  let handle = "";
  for (let i = 0; i < 64; i++) handle += alphaNum[randomInt(alphaNum.length)];
  return handle;
}

/** How many passkeys can sign the identity in (Kratos' passkey CountActiveFirstFactorCredentials). */
export function passkeyCount(identity: Identity): number {
  const credential = identity.credentials.find((c) => c.type === "passkey");
  if (!credential || credential.identifiers.join("") === "") return 0;
  return webAuthnConfigOf(credential).credentials.length;
}

/**
 * Kratos' CountActiveFirstFactorCredentials over the first factors this server has: a password,
 * each passkey, and each passwordless security key when security keys may sign in alone.
 */
export function countFirstFactorCredentials(ctx: ServerContext, identity: Identity): number {
  const password = identity.credentials.find((c) => c.type === "password");
  const hasPassword = typeof password?.config.hashed_password === "string" ? 1 : 0;
  const passwordless = ctx.config.webauthn.passwordless
    ? webAuthnRecordsOf(identity, "webauthn").filter((r) => r.is_passwordless).length
    : 0;
  return hasPassword + passkeyCount(identity) + passwordless;
}

interface DisplayNameExtension {
  credentials?: { passkey?: { display_name?: boolean }; webauthn?: { identifier?: boolean } };
}

/**
 * The traits a passkey is named after in the authenticator (Kratos' PasskeyDisplayNameFromSchema):
 * those marked `passkey.display_name`, else those marked `webauthn.identifier`, sorted by name.
 */
export function passkeyDisplayNameFields(ctx: ServerContext): string[] {
  const marked = (test: (ext: DisplayNameExtension) => boolean) =>
    ctx.schema.traitPaths
      .filter((path) => test(path.extension as DisplayNameExtension))
      .map((path) => path.name)
      .sort();
  const displayNames = marked((ext) => ext.credentials?.passkey?.display_name === true);
  return displayNames.length > 0
    ? displayNames
    : marked((ext) => ext.credentials?.webauthn?.identifier === true);
}

/** The identity's passkey name: the first of those traits with a value. */
export function passkeyDisplayName(ctx: ServerContext, identity: Identity): string {
  for (const field of passkeyDisplayNameFields(ctx)) {
    const value = field
      .split(".")
      .slice(1)
      .reduce<unknown>(
        (at, key) => (at as Record<string, unknown> | undefined)?.[key],
        identity.traits,
      );
    if (typeof value === "string" && value !== "") return value;
  }
  return "";
}
