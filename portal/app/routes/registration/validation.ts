import type { FieldMessage } from "../../flows/messages.ts";

/**
 * Spec §5 registration rules. The browser runs them live and the route action runs them again,
 * so they hold without JavaScript; they are plain functions to keep zod out of the bundle.
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

/** The portal's own message id for the strength rule (spec §5: id 203). */
export const passwordStrengthId = 203;
export const minimumPasswordLength = 12;
const maximumLabelLength = 63;

export const messages = {
  required: { id: 4000002, key: "kratos.4000002", type: "error" },
  invalidEmail: { id: 4000001, key: "kratos.4000001.email", type: "error" },
  emailsMustMatch: { key: "validation.emailsMustMatch", type: "error" },
  passwordStrength: { id: passwordStrengthId, key: "validation.passwordStrength", type: "error" },
  passwordsMustMatch: { key: "validation.passwordsMustMatch", type: "error" },
} as const satisfies Record<string, FieldMessage>;

const domainLabel = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;

/** local part, "@", then two or more dot-separated domain labels of at most 63 characters. */
export function isValidEmail(value: string): boolean {
  const at = value.lastIndexOf("@");
  if (at <= 0) return false;
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split(".");
  if (/[\s@]/.test(local) || labels.length < 2) return false;
  return labels.every(
    (label) => [...label].length <= maximumLabelLength && domainLabel.test(label),
  );
}

/** Spec §5's strength rule in parts, so the page can show each part ticking off as typed. */
export const passwordRules = [
  { id: "length", met: (value: string) => [...value].length >= minimumPasswordLength },
  { id: "uppercase", met: (value: string) => /\p{Lu}/u.test(value) },
  { id: "lowercase", met: (value: string) => /\p{Ll}/u.test(value) },
  { id: "number", met: (value: string) => /\d/.test(value) },
  { id: "special", met: (value: string) => /\W/.test(value) },
] as const;

export type PasswordRuleId = (typeof passwordRules)[number]["id"];

/** At least 12 characters with a digit, a non-word character, a lowercase and an uppercase letter. */
export function isStrongPassword(value: string): boolean {
  return passwordRules.every((rule) => rule.met(value));
}

export function validateEmail(raw: string): FieldMessage[] {
  const email = raw.trim();
  if (email === "") return [messages.required];
  return isValidEmail(email) ? [] : [messages.invalidEmail];
}

export function validateConfirmEmail(rawEmail: string, rawConfirm: string): FieldMessage[] {
  const confirm = rawConfirm.trim();
  if (confirm === "") return [messages.required];
  return confirm.toLowerCase() === rawEmail.trim().toLowerCase() ? [] : [messages.emailsMustMatch];
}

export function validatePassword(password: string): FieldMessage[] {
  if (password === "") return [messages.required];
  return isStrongPassword(password) ? [] : [messages.passwordStrength];
}

export function validateConfirmPassword(password: string, confirm: string): FieldMessage[] {
  if (confirm === "") return [messages.required];
  return confirm === password ? [] : [messages.passwordsMustMatch];
}

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

export function validateRegistration(input: RegistrationInput): RegistrationErrors {
  const errors: RegistrationErrors = {};
  for (const field of Object.values(fieldNames)) {
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
