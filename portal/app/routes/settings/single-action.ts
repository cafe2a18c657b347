import { confirmField } from "./confirmations.ts";
import { intentField, sessionIdField } from "./sessions.ts";

/**
 * The fields that say what a settings post does: the sessions card's intent and session, the
 * second-factor cards' buttons, and the confirmation. A card's form sends one of them (the
 * clicked button), so a post with two (or one twice) was made by hand; refusing it keeps the
 * confirmation check and the handler reading the same single value (a FormData's `get` reads
 * the first value, the JSON form of the fields the last).
 */
const actionFields = [
  intentField,
  sessionIdField,
  confirmField,
  "totp_unlink",
  "totp_device_untrust",
  "code_mfa_enable",
  "code_mfa_disable",
  "lookup_secret_regenerate",
  "lookup_secret_reveal",
  "lookup_secret_confirm",
  "lookup_secret_disable",
  "passkey_remove",
  "webauthn_remove",
] as const;

/** The buttons of which a post may carry one (the sessions card's intent among them). */
const buttons = actionFields.filter((name) => name !== sessionIdField && name !== confirmField);

/** Whether a settings post names more than one action, or an action field more than once. */
export function isAmbiguousSettingsPost(form: FormData): boolean {
  if (actionFields.some((name) => form.getAll(name).length > 1)) return true;
  return buttons.filter((name) => form.has(name)).length > 1;
}
