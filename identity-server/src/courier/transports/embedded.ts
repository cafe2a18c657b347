import type { Logger } from "pino";
import type { Transport } from "./transport.ts";

/**
 * The embedded default: the message is already stored, so the mailbox shows it; delivery only
 * prints the code on the console so a developer can sign in without opening the mailbox.
 */
export function embeddedTransport(logger: Logger): Transport {
  return {
    name: "mailbox",
    send(message) {
      logger.info(
        {
          recipient: message.recipient,
          code: message.templateData.code,
          channel: message.channel,
          template_type: message.templateType,
        },
        "courier: message delivered to the local mailbox",
      );
      return Promise.resolve();
    },
  };
}
