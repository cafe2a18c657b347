import { stringField } from "../../flows/submission.ts";
import { intentField, sessionIntents } from "./sessions.ts";

/**
 * Settings actions that take something away (a second factor, stored backup codes, other
 * sessions) ask first. Without JavaScript the button's post comes back as the settings page
 * with `?confirm=<action>`, where the card asks "Are you sure?" and its confirm form posts the
 * same fields again plus `confirm_action=<action>`; with JavaScript the button opens that same
 * state without the round trip. The server performs none of them without the confirmation
 * field. The field is the portal's own: the identity service receives exactly what it did.
 */
const confirmActions = [
  "totp_unlink",
  "code_mfa_disable",
  "lookup_secret_disable",
  "lookup_secret_regenerate",
  "revoke_others",
  "passkey_remove",
  "webauthn_remove",
] as const;
export type ConfirmAction = (typeof confirmActions)[number];

/**
 * The query parameters of the asking state (the action, and for an action with a choice, e.g.
 * which address stops receiving codes, the posted value), and the confirmed post's field.
 */
export const confirmParam = "confirm";
export const confirmValueParam = "confirm_value";
export const confirmField = "confirm_action";

/** The card (its element id) that asks for each action. */
export const confirmCard: Record<ConfirmAction, string> = {
  totp_unlink: "settings-totp",
  code_mfa_disable: "settings-code",
  lookup_secret_disable: "settings-backup-codes",
  lookup_secret_regenerate: "settings-backup-codes",
  revoke_others: "settings-sessions",
  passkey_remove: "settings-passkeys",
  webauthn_remove: "settings-security-keys",
};

/** Actions with a choice among several buttons: the posted value says which one. */
const withValue: readonly ConfirmAction[] = [
  "code_mfa_disable",
  "passkey_remove",
  "webauthn_remove",
];

export function parseConfirmAction(value: unknown): ConfirmAction | undefined {
  return confirmActions.find((action) => action === value);
}

/**
 * The destructive action a posted settings form asks for, if any (before any confirmation).
 * The field names are those of the identity service's buttons and the sessions card's intent.
 */
export function requestedAction(fields: Record<string, unknown>): ConfirmAction | undefined {
  if (stringField(fields, "totp_unlink") === "true") return "totp_unlink";
  if (stringField(fields, "code_mfa_disable")) return "code_mfa_disable";
  if (stringField(fields, "lookup_secret_disable") === "true") return "lookup_secret_disable";
  if (stringField(fields, "lookup_secret_regenerate") === "true") return "lookup_secret_regenerate";
  if (stringField(fields, intentField) === sessionIntents.revokeOthers) return "revoke_others";
  // One button per passkey or security key, its value the credential's id.
  if (stringField(fields, "passkey_remove")) return "passkey_remove";
  if (stringField(fields, "webauthn_remove")) return "webauthn_remove";
  return undefined;
}

/** The posted value that says which one, for the actions with a choice among several buttons. */
export function requestedValue(
  fields: Record<string, unknown>,
  action: ConfirmAction,
): string | undefined {
  return withValue.includes(action) ? stringField(fields, action) : undefined;
}

/** The settings page's query with the asking state for `action` set (or, undefined, removed). */
export function withConfirmation(
  search: string,
  action: ConfirmAction | undefined,
  value?: string,
): string {
  const query = new URLSearchParams(search);
  query.delete(confirmParam);
  query.delete(confirmValueParam);
  if (action) query.set(confirmParam, action);
  if (action && value !== undefined) query.set(confirmValueParam, value);
  const text = query.toString();
  return text ? `?${text}` : "";
}
