import type { FieldMessage } from "../flows/messages.ts";

/**
 * The messages of the portal's own field rules (spec §5), shared by every page that checks an
 * e-mail address or a new password before the identity service sees it.
 */
/** The portal's own message id for the strength rule (spec §5: id 203). */
export const passwordStrengthId = 203;

export const messages = {
  required: { id: 4000002, key: "kratos.4000002", type: "error" },
  invalidEmail: { id: 4000001, key: "kratos.4000001.email", type: "error" },
  emailsMustMatch: { key: "validation.emailsMustMatch", type: "error" },
  passwordStrength: { id: passwordStrengthId, key: "validation.passwordStrength", type: "error" },
  passwordsMustMatch: { key: "validation.passwordsMustMatch", type: "error" },
} as const satisfies Record<string, FieldMessage>;
