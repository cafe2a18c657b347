import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { CourierConfig } from "../config/courier-config.ts";
import {
  claimDueMessages,
  insertDispatch,
  insertMessage,
  nextDueAt,
  updateDeliveryState,
} from "../store/courier-messages.ts";
import type { Database, Executor } from "../store/schema.ts";
import type { Locale } from "../text/locale.ts";
import type { CourierMessage, MessageChannel, TemplateType } from "./message.ts";
import { newWorkerId, requeueAbandonedClaims } from "./claims.ts";
import { renderTemplate, type TemplateData } from "./templates.ts";
import { embeddedTransport } from "./transports/embedded.ts";
import { smsWebhookTransport } from "./transports/sms-webhook.ts";
import { smtpTransport } from "./transports/smtp.ts";
import type { Transport } from "./transports/transport.ts";

export interface QueueRequest {
  channel: MessageChannel;
  recipient: string;
  templateType: TemplateType;
  locale: Locale;
  data: TemplateData;
}

export interface CourierEvents {
  sent: [CourierMessage];
  /** A failed attempt; the message is queued again or, after the last attempt, abandoned. */
  failed: [CourierMessage, Error];
}

export interface CourierOptions {
  config: CourierConfig;
  db: Kysely<Database>;
  logger: Logger;
  now: () => Date;
  /** Replaces the configured transports (tests use failing or recording stubs). */
  transports?: Partial<Record<MessageChannel, Transport>>;
  /** How often to look for due messages when nothing wakes the dispatcher. */
  pollIntervalMs?: number;
}

const batchSize = 20;

function transportsFor(
  config: CourierConfig,
  logger: Logger,
): Record<MessageChannel, Transport> & { close(): void } {
  const embedded = embeddedTransport(logger);
  const smtp = config.smtpUrl ? smtpTransport(config.smtpUrl, config.smtpFromAddress) : undefined;
  return {
    email: smtp ?? embedded,
    sms: config.smsWebhookUrl ? smsWebhookTransport(config.smsWebhookUrl) : embedded,
    close: () => smtp?.close(),
  };
}

function errorBody(error: Error): Record<string, unknown> {
  // Kratos stores the failure as a herodot error object.
  return { code: 500, status: "Internal Server Error", message: error.message };
}

/**
 * The outbox: messages are written by `queue` inside the caller's transaction (nothing is lost if the
 * process stops), and a dispatcher sends what is due, retrying failures with exponential back-off
 * until the configured number of attempts, after which the message is "abandoned". One dispatch
 * runs at a time per courier (a wake during a run asks for one more run after it); every message is
 * claimed by a conditional update naming this worker, so couriers of several processes on one
 * database never send the same message twice (claims.ts).
 */
export class Courier extends EventEmitter<CourierEvents> {
  private readonly options: CourierOptions;
  private readonly transports: Record<MessageChannel, Transport>;
  private readonly closeTransports: () => void;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private lastCreatedAt = 0;
  private stopped = false;
  /** Whose claim a "processing" message carries (claims.ts). */
  private readonly worker = newWorkerId();

  constructor(options: CourierOptions) {
    super();
    this.options = options;
    const configured = transportsFor(options.config, options.logger);
    this.transports = {
      email: options.transports?.email ?? configured.email,
      sms: options.transports?.sms ?? configured.sms,
    };
    this.closeTransports = () => configured.close();
  }

  /** Renders and stores a message; pass the transaction that creates what it is about. */
  async queue(db: Executor, request: QueueRequest): Promise<CourierMessage> {
    // Newest-first lists order by creation time; keep it strictly increasing within the process.
    const now = new Date(Math.max(this.options.now().getTime(), this.lastCreatedAt + 1));
    this.lastCreatedAt = now.getTime();
    const rendered = renderTemplate(
      request.templateType,
      request.channel,
      request.locale,
      request.data,
    );
    const message: CourierMessage = {
      id: randomUUID(),
      channel: request.channel,
      status: "queued",
      recipient: request.recipient,
      subject: rendered.subject,
      body: rendered.body,
      templateType: request.templateType,
      templateData: { ...request.data },
      locale: request.locale,
      sendCount: 0,
      nextAttemptAt: now,
      lastError: undefined,
      createdAt: now,
      updatedAt: now,
    };
    await insertMessage(db, message);
    // The dispatcher's queries wait for the database connection, so they see the message only once
    // the caller's transaction has committed.
    if (this.timer) setImmediate(() => this.wake());
    return message;
  }

  /** Starts the background dispatcher (messages a stopped worker left are picked up first). */
  async start(): Promise<void> {
    await requeueAbandonedClaims(this.options.db, this.worker, this.options.now());
    const interval = this.options.pollIntervalMs ?? 1000;
    this.timer = setInterval(() => this.wake(), interval);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    this.closeTransports();
  }

  /** Runs a dispatch now, or once more right after the one in progress. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.dispatchDue();
        } catch (error) {
          this.options.logger.error({ err: error }, "courier: dispatch run failed");
        }
      } while (this.again);
    })().finally(() => {
      this.running = undefined;
    });
  }

  /** Sends every message that is due now; returns how many were attempted. */
  async dispatchDue(): Promise<number> {
    const { db, now } = this.options;
    // Messages of a worker that stopped mid-delivery (another process crashed) go out again.
    await requeueAbandonedClaims(db, this.worker, now());
    let attempted = 0;
    for (;;) {
      const batch = await claimDueMessages(db, now(), batchSize, this.worker);
      if (batch.length === 0) return attempted;
      for (const message of batch) await this.attempt(message);
      attempted += batch.length;
    }
  }

  /** When the next queued message becomes due (for tests and diagnostics). */
  nextDueAt(): Promise<Date | undefined> {
    return nextDueAt(this.options.db);
  }

  private async attempt(message: CourierMessage): Promise<void> {
    const { config, db, logger } = this.options;
    message.sendCount += 1;
    let failure: Error | undefined;
    try {
      await this.transports[message.channel].send(message);
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    }
    const now = this.options.now();
    message.updatedAt = now;
    if (!failure) {
      message.status = "sent";
      message.lastError = undefined;
    } else {
      message.lastError = failure.message;
      if (message.sendCount >= config.maxAttempts) {
        message.status = "abandoned";
      } else {
        message.status = "queued";
        const delay = config.retryBackoffMs * 2 ** (message.sendCount - 1);
        message.nextAttemptAt = new Date(now.getTime() + delay);
      }
    }
    await db.transaction().execute(async (trx) => {
      await updateDeliveryState(trx, message);
      await insertDispatch(trx, {
        id: randomUUID(),
        messageId: message.id,
        status: failure ? "failed" : "success",
        error: failure ? errorBody(failure) : undefined,
        createdAt: now,
        updatedAt: now,
      });
    });
    if (!failure) {
      this.emit("sent", message);
      return;
    }
    const log = { message_id: message.id, attempt: message.sendCount, err: failure };
    if (message.status === "abandoned") {
      logger.warn(log, "courier: message abandoned after its last delivery attempt");
    } else {
      logger.warn(log, "courier: delivery failed, will retry");
    }
    this.emit("failed", message, failure);
  }
}
