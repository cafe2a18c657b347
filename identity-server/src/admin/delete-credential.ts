import { badRequest, HerodotError } from "../http/errors.ts";
import type { Identity } from "../identity/identity.ts";
import { withoutPasskeys } from "../methods/passkey/passkey-admin.ts";
import { passkeyCount } from "../methods/passkey/passkey-credentials.ts";
import { withoutSecurityKeys } from "../methods/webauthn/admin-removal.ts";

// First factors Kratos counts before it lets an administrator remove one (identity/handler.go
// deleteIdentityCredentials), besides passkeys (each passkey counts, as in Kratos).
const firstFactorTypes = ["password", "oidc", "saml"];

function countsAsFirstFactor(identity: Identity, type: string): boolean {
  const credential = identity.credentials.find((c) => c.type === type);
  if (!credential) return false;
  if (type === "password") return typeof credential.config.hashed_password === "string";
  return credential.identifiers.length > 0;
}

/**
 * DELETE /admin/identities/{id}/credentials/{type}: the identity without that credential, or the
 * error Kratos answers. Second factors (totp, lookup_secret, webauthn's security keys) go; a first
 * factor (password, oidc, saml, every passkey) only when another one remains; other types (code,
 * and passkey in strict mode) cannot be deleted here. `identifier` selects one social sign-in of oidc/saml, which this server
 * never has.
 */
export function withoutCredential(
  identity: Identity,
  type: string,
  oryExtensions: boolean,
): Identity {
  const credential = identity.credentials.find((c) => c.type === type);
  if (!credential) {
    throw new HerodotError(404, {
      reason: `You tried to remove a ${type} but this user have no ${type} set up.`,
    });
  }
  const remaining = identity.credentials.filter((c) => c.type !== type);
  if (type === "totp" || type === "lookup_secret") return { ...identity, credentials: remaining };
  if (type === "webauthn") return withoutSecurityKeys(identity);
  const otherFirstFactors = firstFactorTypes.filter((t) => countsAsFirstFactor(identity, t)).length;
  // Deleting passkeys is ours; strict mode answers as Kratos (below: cannot be deleted).
  if (type === "passkey" && oryExtensions) return withoutPasskeys(identity, otherFirstFactors);
  if (firstFactorTypes.includes(type)) {
    // Each passkey is a first factor too (Kratos' passkey CountActiveFirstFactorCredentials).
    const firstFactors = otherFirstFactors + passkeyCount(identity);
    if (firstFactors < 2) throw badRequest("You cannot remove the last first factor credential.");
    return { ...identity, credentials: remaining };
  }
  throw badRequest(`Credentials type ${type} cannot be deleted.`);
}
