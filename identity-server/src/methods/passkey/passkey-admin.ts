import { badRequest } from "../../http/errors.ts";
import type { Identity } from "../../identity/identity.ts";

/**
 * DELETE /admin/identities/{id}/credentials/passkey: every passkey of the identity goes, unless
 * they are its only way to sign in (`otherFirstFactors`: how many other first factors it has),
 * refused with Kratos' message for the last first factor. Kratos does not delete passkeys here
 * ("Credentials type passkey cannot be deleted."); an administrator removing a lost device's
 * passkey is the point of this endpoint, so this server does.
 */
export function withoutPasskeys(identity: Identity, otherFirstFactors: number): Identity {
  if (otherFirstFactors === 0) {
    throw badRequest("You cannot remove the last first factor credential.");
  }
  return { ...identity, credentials: identity.credentials.filter((c) => c.type !== "passkey") };
}
