import type { FieldMessage } from "../../flows/messages.ts";
import type { FieldErrors } from "../../flows/use-live-errors.ts";
import { isValidEmail } from "../../validation/email.ts";
import { messages } from "../../validation/messages.ts";

/** How a verification code travels: by e-mail, or by text message to a phone. */
export type Channel = "email" | "sms";

export function isChannel(value: unknown): value is Channel {
  return value === "email" || value === "sms";
}

/** A verifiable address of the signed-in identity, as the page lists it. */
export interface ListedAddress {
  value: string;
  channel: Channel;
  verified: boolean;
}

/**
 * Whether the page offers the other channel ("Use phone instead" / "Use email instead"). Someone
 * signed in is offered the phone only if their identity has a phone number. Without a session
 * the page cannot know, so both stay open until a code is sent; after that only the channel of
 * the address entered remains.
 */
export function offersOtherChannel(args: {
  signedIn: boolean;
  addresses: readonly ListedAddress[];
  codeSent: boolean;
}): boolean {
  if (args.signedIn) return args.addresses.some((address) => address.channel === "sms");
  return !args.codeSent;
}

/** The address field is called `email` in both modes: Kratos accepts phone numbers there. */
export const addressField = "email";

/** The page's own hidden field: which channel the form showed when it was posted. */
export const channelField = "channel";

export const verificationMessages = {
  invalidPhone: { id: 4000001, key: "kratos.4000001.phone", type: "error" },
  codeOrEmail: { key: "validation.codeOrEmail", type: "error" },
  codeOrPhone: { key: "validation.codeOrPhone", type: "error" },
} as const satisfies Record<string, FieldMessage>;

/** What was posted; a field the form did not show is undefined. */
export interface VerificationInput {
  channel: Channel;
  code?: string;
  address?: string;
}

export type VerificationCheck =
  | { kind: "code"; code: string }
  | { kind: "send"; address: string }
  | { kind: "invalid"; errors: FieldErrors };

/**
 * Spec §5 "Verification": a code, or an address of the chosen channel, must be given; otherwise
 * the fields shown get errors and nothing is sent. A code wins when both are filled in.
 * `phone` turns what was typed into E.164, or undefined when it is not a valid number.
 */
export function checkVerification(
  input: VerificationInput,
  phone: (raw: string) => string | undefined,
): VerificationCheck {
  const code = input.code?.trim() ?? "";
  if (code !== "") return { kind: "code", code };
  const raw = input.address?.trim() ?? "";
  if (raw !== "") {
    if (input.channel === "sms") {
      const number = phone(raw);
      return number === undefined
        ? { kind: "invalid", errors: { [addressField]: [verificationMessages.invalidPhone] } }
        : { kind: "send", address: number };
    }
    const email = raw.toLowerCase();
    return isValidEmail(email)
      ? { kind: "send", address: email }
      : { kind: "invalid", errors: { [addressField]: [messages.invalidEmail] } };
  }
  const both = input.code !== undefined && input.address !== undefined;
  const missing: FieldMessage = both
    ? input.channel === "sms"
      ? verificationMessages.codeOrPhone
      : verificationMessages.codeOrEmail
    : messages.required;
  const errors: FieldErrors = {};
  if (input.code !== undefined) errors.code = [missing];
  if (input.address !== undefined || input.code === undefined) errors[addressField] = [missing];
  return { kind: "invalid", errors };
}
