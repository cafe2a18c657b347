import type { Identity } from "../../identity/identity.ts";
import { webAuthnConfigOf } from "../webauthn-base/credential-records.ts";
import { webauthnCredentialOf } from "./security-keys.ts";

/**
 * DELETE /admin/identities/{id}/credentials/webauthn, as Kratos' deleteCredentialWebAuthFromIdentity:
 * the second-factor keys go, passwordless ones stay (the credential goes when none is left).
 */
export function withoutSecurityKeys(identity: Identity): Identity {
  const credential = webauthnCredentialOf(identity);
  const others = identity.credentials.filter((c) => c.type !== "webauthn");
  if (!credential) return identity;
  const config = webAuthnConfigOf(credential);
  const passwordless = config.credentials.filter((record) => record.is_passwordless);
  if (passwordless.length === 0) return { ...identity, credentials: others };
  return {
    ...identity,
    credentials: [
      ...others,
      { ...credential, config: { ...credential.config, credentials: passwordless } },
    ],
  };
}
