import { sql } from "kysely";
import type { Executor } from "../../store/schema.ts";
import { uiText } from "../../text/messages.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { toStoredBase64 } from "./credential-records.ts";

/**
 * The identity that holds an authenticator with this credential id (base64url, as on the wire) in
 * its passkey or security-key credential, if any. A registration is rare, so a scan of the
 * WebAuthn credentials' lists is acceptable.
 */
async function credentialIdOwner(
  db: Executor,
  credentialIdBase64url: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("identity_credentials")
    .select("identity_id")
    .where("type", "in", ["passkey", "webauthn"])
    .where(
      sql<boolean>`exists (select 1 from json_each(identity_credentials.config, '$.credentials') as c
        where json_extract(c.value, '$.id') = ${toStoredBase64(credentialIdBase64url)})`,
    )
    .executeTakeFirst();
  return row?.identity_id;
}

/**
 * WebAuthn §7.1 step 26: a credential id registered already (to any identity) is refused. Another
 * identity's credential answers as a clash of identifiers does in Kratos (4000007, "An account
 * with the same identifier … exists already"); the caller's own keeps Kratos'
 * ErrCredentialAlreadyRegistered.
 */
export async function refuseRegisteredCredentialId(
  db: Executor,
  credentialIdBase64url: string,
  field: string,
  ownerId: string | undefined,
): Promise<void> {
  const owner = await credentialIdOwner(db, credentialIdBase64url);
  if (owner === undefined) return;
  if (owner === ownerId) throw alreadyYours(field);
  throw ValidationError.of("", uiText(4000007));
}

/** Kratos' ErrCredentialAlreadyRegistered (a message without an id of its own: 4000001). */
export function alreadyYours(field: string): ValidationError {
  return ValidationError.of(
    field,
    uiText(4000001, {
      reason: "this security key or passkey is already registered with your account",
    }),
  );
}
