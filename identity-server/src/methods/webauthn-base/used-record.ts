import type { Identity } from "../../identity/identity.ts";
import { findIdentity, updateCredentialConfig } from "../../store/identities.ts";
import type { Executor } from "../../store/schema.ts";
import {
  toWireBase64url,
  findRecord,
  webAuthnConfigOf,
  type WebAuthnCredentialRecord,
  type WebAuthnCredentialType,
} from "./credential-records.ts";
import { WebAuthnRefused } from "./webauthn-refused.ts";

/**
 * Stores an authenticator's new counter (and backup state) after a verified assertion, changing
 * nothing else: in one transaction the identity's credential is read again, so a passkey or key
 * removed or added meanwhile (settings, the admin API) is neither restored nor lost. The answer is
 * refused when its authenticator is gone by now, or when another answer already stored a counter
 * at least as high (two parallel answers with one counter: only the first passes the clone check).
 */
export async function saveUsedRecord(
  db: Executor,
  identityId: string,
  type: WebAuthnCredentialType,
  used: WebAuthnCredentialRecord,
  now: Date,
): Promise<Identity> {
  return db.transaction().execute(async (trx) => {
    const identity = await findIdentity(trx, identityId);
    const credential = identity?.credentials.find((c) => c.type === type);
    if (!identity || !credential) throw new WebAuthnRefused("the authenticator was removed");
    const config = webAuthnConfigOf(credential);
    const current = findRecord(config.credentials, toWireBase64url(used.id));
    if (!current) throw new WebAuthnRefused("the authenticator was removed");
    const counter = used.authenticator.sign_count;
    const stored = current.authenticator.sign_count;
    if ((counter !== 0 || stored !== 0) && stored >= counter) {
      throw new WebAuthnRefused("the signature counter did not increase");
    }
    const saved: WebAuthnCredentialRecord = {
      ...current,
      authenticator: { ...current.authenticator, sign_count: counter },
      ...(used.flags ? { flags: used.flags } : {}),
    };
    credential.config = {
      ...credential.config,
      credentials: config.credentials.map((record) => (record === current ? saved : record)),
    };
    await updateCredentialConfig(trx, credential.id, credential.config, now);
    return identity;
  });
}
