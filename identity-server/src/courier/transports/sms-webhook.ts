import type { Transport } from "./transport.ts";

const timeoutMs = 10_000;

/** Text messages through an HTTP gateway: POST {to, body} as JSON; any non-2xx answer is a failure. */
export function smsWebhookTransport(url: string): Transport {
  return {
    name: "sms-webhook",
    async send(message) {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ to: message.recipient, body: message.body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      // Drain the body so the connection can be reused.
      await response.arrayBuffer();
      if (!response.ok) {
        throw new Error(`The SMS webhook answered ${response.status} ${response.statusText}`);
      }
    },
  };
}
