import type { FieldErrors } from "../../flows/use-live-errors.ts";
import { validateEmail } from "../../validation/email.ts";
import { messages } from "../../validation/messages.ts";

/** What a recovery submission asks for, after the same checks the browser runs live. */
export type RecoveryCheck =
  | { kind: "send"; email: string; values: RecoveryValues }
  | { kind: "code"; code: string; values: RecoveryValues }
  | { kind: "invalid"; errors: FieldErrors; values: RecoveryValues };

type RecoveryValues = Partial<Record<"email", string>>;

/**
 * An e-mail address arrives when the user asks for a code, typed or from the "Resend code"
 * button; otherwise the form carries the code. E-mail addresses are sent lowercased (spec §5).
 */
export function validateRecovery(input: { email?: string; code?: string }): RecoveryCheck {
  if (input.email !== undefined) {
    const email = input.email.trim().toLowerCase();
    const values = { email };
    const errors = validateEmail(email);
    return errors.length > 0
      ? { kind: "invalid", errors: { email: errors }, values }
      : { kind: "send", email, values };
  }
  const code = (input.code ?? "").trim();
  return code === ""
    ? { kind: "invalid", errors: { code: [messages.required] }, values: {} }
    : { kind: "code", code, values: {} };
}
