import type { Transporter } from "nodemailer";
import type { Transport } from "./transport.ts";

/**
 * E-mail over SMTP (smtp:// with STARTTLS when offered, smtps:// for implicit TLS). nodemailer
 * (about 5 MB of heap) is loaded with the first message, not at start-up.
 */
export function smtpTransport(smtpUrl: string, from: string): Transport & { close(): void } {
  let mailer: Promise<Transporter> | undefined;
  return {
    name: "smtp",
    async send(message) {
      mailer ??= import("nodemailer").then(({ createTransport }) => createTransport(smtpUrl));
      const transporter = await mailer;
      await transporter.sendMail({
        from,
        to: message.recipient,
        subject: message.subject,
        text: message.body,
      });
    },
    close() {
      void mailer?.then((m) => m.close());
    },
  };
}
