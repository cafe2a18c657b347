import { createTransport } from "nodemailer";
import type { Transport } from "./transport.ts";

/** E-mail over SMTP (smtp:// with STARTTLS when offered, smtps:// for implicit TLS). */
export function smtpTransport(smtpUrl: string, from: string): Transport & { close(): void } {
  const mailer = createTransport(smtpUrl);
  return {
    name: "smtp",
    async send(message) {
      await mailer.sendMail({
        from,
        to: message.recipient,
        subject: message.subject,
        text: message.body,
      });
    },
    close() {
      mailer.close();
    },
  };
}
