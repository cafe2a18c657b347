import type { Logger } from "pino";
import type { Transport } from "./transport.ts";

/**
 * The embedded default: the message is already stored, so the mailbox shows it. Delivery only
 * notes it on the console, without the code: a log is read by more people than the mailbox (which
 * listens on loopback only), and a code there would be a way into the account.
 */
export function embeddedTransport(logger: Logger): Transport {
  return {
    name: "mailbox",
    send(message) {
      logger.info(
        {
          recipient: message.recipient,
          channel: message.channel,
          template_type: message.templateType,
        },
        "courier: message delivered to the local mailbox",
      );
      return Promise.resolve();
    },
  };
}
