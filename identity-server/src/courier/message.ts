/** Where a message goes; Kratos calls this the message `type` and names the channel the same. */
export type MessageChannel = "email" | "sms";

/** Kratos' courier message states; "processing" only while a dispatcher holds the message. */
export type MessageStatus = "queued" | "processing" | "sent" | "abandoned";
export const messageStatuses: readonly MessageStatus[] = [
  "queued",
  "sent",
  "processing",
  "abandoned",
];

export type TemplateType =
  | "recovery_code_valid"
  | "verification_code_valid"
  | "login_code_valid"
  // Kratos' notify_unknown_recipients: recovery was asked for an address without an account.
  | "recovery_code_invalid";

export interface CourierMessage {
  id: string;
  channel: MessageChannel;
  status: MessageStatus;
  recipient: string;
  subject: string;
  body: string;
  templateType: TemplateType;
  /** The values the template was rendered with (the code among them), kept for the mailbox. */
  templateData: Record<string, unknown>;
  locale: string;
  sendCount: number;
  /** A queued message is not tried again before this time (exponential back-off). */
  nextAttemptAt: Date;
  lastError: string | undefined;
  createdAt: Date;
  updatedAt: Date;
}

export interface MessageDispatch {
  id: string;
  messageId: string;
  status: "failed" | "success";
  error: Record<string, unknown> | undefined;
  createdAt: Date;
  updatedAt: Date;
}

/** The message as Kratos' admin API encodes it (OpenAPI `message`), newest dispatch first. */
export function messageJson(
  message: CourierMessage,
  dispatches: MessageDispatch[],
): Record<string, unknown> {
  return {
    id: message.id,
    status: message.status,
    type: message.channel,
    recipient: message.recipient,
    body: message.body,
    subject: message.subject,
    template_type: message.templateType,
    channel: message.channel,
    send_count: message.sendCount,
    ...(dispatches.length > 0
      ? {
          dispatches: dispatches.map((d) => ({
            id: d.id,
            message_id: d.messageId,
            status: d.status,
            ...(d.error ? { error: d.error } : {}),
            created_at: d.createdAt.toISOString(),
            updated_at: d.updatedAt.toISOString(),
          })),
        }
      : {}),
    created_at: message.createdAt.toISOString(),
    updated_at: message.updatedAt.toISOString(),
  };
}
