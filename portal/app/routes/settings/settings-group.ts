import { stringField } from "../../flows/submission.ts";

const lookupButtons = [
  "lookup_secret_regenerate",
  "lookup_secret_reveal",
  "lookup_secret_confirm",
  "lookup_secret_disable",
] as const;

/**
 * The card a settings submission came from (its `group`), so the answer's messages go back to
 * that card. Read from the clicked button the way the identity service picks its strategy (most
 * second-factor buttons by their own field, as Kratos does, the rest by `method`); the portal
 * does not decide from it what to send.
 */
export function settingsGroup(fields: Record<string, unknown>): string {
  const method = stringField(fields, "method");
  if (lookupButtons.some((name) => stringField(fields, name) === "true")) return "lookup_secret";
  if (stringField(fields, "totp_device_untrust")) return "trusted-devices";
  if (method === "totp" || stringField(fields, "totp_unlink") === "true") return "totp";
  if (stringField(fields, "code_mfa_enable") || stringField(fields, "code_mfa_disable")) {
    return "code";
  }
  if (stringField(fields, "passkey_remove")) return "passkey";
  if (stringField(fields, "webauthn_remove")) return "webauthn";
  return method ?? "";
}
