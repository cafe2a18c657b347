import type { FieldMessage } from "../../flows/messages.ts";
import type { FieldErrors } from "../../flows/use-live-errors.ts";
import { validateConfirmPassword, validatePassword } from "../../validation/password.ts";

/** The password card's fields; the confirmation is the portal's own and never sent. */
export const passwordFields = { password: "password", confirm: "confirm_password" } as const;

export const phoneMessages = {
  invalid: { id: 4000001, key: "kratos.4000001.phone", type: "error" },
} as const satisfies Record<string, FieldMessage>;

/** Spec §5: a new password passes the registration strength and match checks. */
export function checkPasswordChange(password: string, confirm: string): FieldErrors {
  const errors: FieldErrors = {};
  const strength = validatePassword(password);
  const match = validateConfirmPassword(password, confirm);
  if (strength.length > 0) errors[passwordFields.password] = strength;
  if (match.length > 0) errors[passwordFields.confirm] = match;
  return errors;
}
