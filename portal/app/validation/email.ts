import type { FieldMessage } from "../flows/messages.ts";
import { messages } from "./messages.ts";

/**
 * Spec §5's e-mail rule. The browser runs it live and the route actions run it again, so it holds
 * without JavaScript; plain functions keep zod out of the bundle.
 */
const maximumLabelLength = 63;

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
