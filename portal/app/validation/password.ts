import type { FieldMessage } from "../flows/messages.ts";
import { messages } from "./messages.ts";

/**
 * Spec §5's password rule, run live in the browser and again by the route actions (registration
 * and the settings password card), so it holds without JavaScript.
 */
const minimumPasswordLength = 12;

/** Spec §5's strength rule in parts, so the page can show each part ticking off as typed. */
export const passwordRules = [
  { id: "length", met: (value: string) => [...value].length >= minimumPasswordLength },
  { id: "uppercase", met: (value: string) => /\p{Lu}/u.test(value) },
  { id: "lowercase", met: (value: string) => /\p{Ll}/u.test(value) },
  { id: "number", met: (value: string) => /\d/.test(value) },
  { id: "special", met: (value: string) => /\W/.test(value) },
] as const;

/** At least 12 characters with a digit, a non-word character, a lowercase and an uppercase letter. */
export function isStrongPassword(value: string): boolean {
  return passwordRules.every((rule) => rule.met(value));
}

export function validatePassword(password: string): FieldMessage[] {
  if (password === "") return [messages.required];
  return isStrongPassword(password) ? [] : [messages.passwordStrength];
}

export function validateConfirmPassword(password: string, confirm: string): FieldMessage[] {
  if (confirm === "") return [messages.required];
  return confirm === password ? [] : [messages.passwordsMustMatch];
}
