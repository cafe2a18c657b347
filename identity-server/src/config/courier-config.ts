import { z } from "zod";
import { duration, flag, httpUrl, port, positive } from "./env-values.ts";

export interface CourierConfig {
  /** smtp:// or smtps:// URL; without it e-mails go to the embedded mailbox. */
  smtpUrl: string | undefined;
  smtpFromAddress: string;
  /** Receives POST {to, body} for every SMS; without it SMS go to the embedded mailbox. */
  smsWebhookUrl: string | undefined;
  /** Delivery attempts before a message is abandoned. */
  maxAttempts: number;
  /** Wait before the second attempt; it doubles for every further attempt. */
  retryBackoffMs: number;
}

/** The embedded mailbox that catches e-mails and SMS when no real courier is configured. */
export interface MailboxConfig {
  enabled: boolean;
  port: number;
}

const smtpUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "smtp:" || url.protocol === "smtps:";
    } catch {
      return false;
    }
  }, "must be an smtp:// or smtps:// URL");

const backoff = duration(positive, "a positive duration like 1h or 30m");

/** The environment variables of message delivery; `loadConfig` validates them with the rest. */
export const courierEnvShape = {
  IDENTITY_MAILBOX_ENABLED: flag.optional(),
  IDENTITY_MAILBOX_PORT: port.default(4436),
  IDENTITY_COURIER_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
  IDENTITY_COURIER_RETRY_BACKOFF: backoff.default(1000),
  SMTP_URL: smtpUrl.optional(),
  SMTP_FROM_ADDRESS: z
    .string()
    .trim()
    .regex(/^[^@\s]+@[^@\s]+$/, "must be an e-mail address")
    .default("no-reply@localhost"),
  SMS_WEBHOOK_URL: httpUrl.optional(),
};

type CourierEnv = z.infer<z.ZodObject<typeof courierEnvShape>>;

export function courierConfigFrom(e: CourierEnv): CourierConfig {
  return {
    smtpUrl: e.SMTP_URL,
    smtpFromAddress: e.SMTP_FROM_ADDRESS,
    smsWebhookUrl: e.SMS_WEBHOOK_URL,
    maxAttempts: e.IDENTITY_COURIER_MAX_ATTEMPTS,
    retryBackoffMs: e.IDENTITY_COURIER_RETRY_BACKOFF,
  };
}

/** The mailbox is the embedded default; with a real SMTP server it is off unless asked for. */
export function mailboxConfigFrom(e: CourierEnv): MailboxConfig {
  return {
    enabled: e.IDENTITY_MAILBOX_ENABLED ?? e.SMTP_URL === undefined,
    port: e.IDENTITY_MAILBOX_PORT,
  };
}
