import { createInterface } from "node:readline";
import { setTimeout as delay } from "node:timers/promises";
import { pino } from "pino";
import { Courier } from "../courier/courier.ts";
import type { Transport } from "../courier/transports/transport.ts";
import { openDatabase } from "../store/database.ts";

// A courier worker in its own process, as a server process runs one, on the data dir given: it
// starts when the test writes "start", prints "sent <id>" for every delivery and "failed" for a
// dispatch run that failed, and stops (letting the delivery in progress finish) on "stop".

const dataDir = process.argv[2] ?? "";
const db = await openDatabase(dataDir);
// A delivery takes a little while, as a real one does: long enough for another worker to start
// while this one holds claimed messages.
const recording: Transport = {
  name: "recording",
  async send(message) {
    await delay(5);
    process.stdout.write(`sent ${message.id}\n`);
  },
};
const logger = pino({ level: "error" }, { write: () => process.stdout.write("failed\n") });
const courier = new Courier({
  config: {
    smtpUrl: undefined,
    smtpFromAddress: "no-reply@localhost",
    smsWebhookUrl: undefined,
    maxAttempts: 5,
    retryBackoffMs: 1000,
  },
  db,
  logger,
  now: () => new Date(),
  transports: { email: recording, sms: recording },
  pollIntervalMs: 50,
});

const lines = createInterface({ input: process.stdin });
process.stdout.write("ready\n");
for await (const line of lines) {
  if (line === "start") await courier.start();
  if (line === "stop") break;
}
lines.close();
await courier.stop();
await db.destroy();
