import type { FieldMessage } from "../../flows/messages.ts";
import { validateConfirmEmail, validateEmail } from "../../validation/email.ts";
import { validateConfirmPassword, validatePassword } from "../../validation/password.ts";

/**
 * The registration form's fields and their checks (spec §5; the rules themselves, shared with
 * the other pages, are in validation/). The browser runs them live and the route action runs them
 * again, so they hold without JavaScript; plain functions keep zod out of the bundle.
 */
export const fieldNames = {
  email: "traits.email",
  confirmEmail: "confirm_email",
  password: "password",
  confirmPassword: "confirm_password",
} as const;

export type RegistrationField = (typeof fieldNames)[keyof typeof fieldNames];

export interface RegistrationInput {
  email: string;
  confirmEmail: string;
  password: string;
  confirmPassword: string;
}

export type RegistrationErrors = Partial<Record<RegistrationField, FieldMessage[]>>;

/** One field's messages, given every field's current value. */
export function validateField(field: RegistrationField, input: RegistrationInput): FieldMessage[] {
  switch (field) {
    case fieldNames.email:
      return validateEmail(input.email);
    case fieldNames.confirmEmail:
      return validateConfirmEmail(input.email, input.confirmEmail);
    case fieldNames.password:
      return validatePassword(input.password);
    case fieldNames.confirmPassword:
      return validateConfirmPassword(input.password, input.confirmPassword);
  }
}

/** Fields a passkey sign-up checks: it has no password. */
const passkeyFields: readonly RegistrationField[] = [fieldNames.email, fieldNames.confirmEmail];

/** Every field's messages; a passkey sign-up (`method=passkey`) has no password to check. */
export function validateRegistration(
  input: RegistrationInput,
  method: unknown = "password",
): RegistrationErrors {
  const errors: RegistrationErrors = {};
  const fields = method === "passkey" ? passkeyFields : Object.values(fieldNames);
  for (const field of fields) {
    const fieldErrors = validateField(field, input);
    if (fieldErrors.length > 0) errors[field] = fieldErrors;
  }
  return errors;
}

export function isRegistrationField(name: string): name is RegistrationField {
  return Object.values(fieldNames).some((field) => field === name);
}

/** The form's values as the validators read them, from the posted form or the live DOM form. */
export function readRegistrationInput(get: (name: string) => unknown): RegistrationInput {
  const text = (name: string) => {
    const value = get(name);
    return typeof value === "string" ? value : "";
  };
  return {
    email: text(fieldNames.email),
    confirmEmail: text(fieldNames.confirmEmail),
    password: text(fieldNames.password),
    confirmPassword: text(fieldNames.confirmPassword),
  };
}
