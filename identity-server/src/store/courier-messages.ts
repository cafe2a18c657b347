import type { CourierMessage, MessageDispatch, MessageStatus } from "../courier/message.ts";
import type { CourierMessagesTable, Executor } from "./schema.ts";
import { firstRow } from "./first-row.ts";

function toMessage(row: CourierMessagesTable): CourierMessage {
  return {
    id: row.id,
    channel: row.type === "sms" ? "sms" : "email",
    status: row.status as MessageStatus,
    recipient: row.recipient,
    subject: row.subject,
    body: row.body,
    templateType: row.template_type as CourierMessage["templateType"],
    templateData: JSON.parse(row.template_data) as Record<string, unknown>,
    locale: row.locale,
    sendCount: row.send_count,
    nextAttemptAt: new Date(row.next_attempt_at),
    lastError: row.last_error ?? undefined,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** Queues a message; call it inside the transaction that creates what the message is about. */
export async function insertMessage(db: Executor, message: CourierMessage): Promise<void> {
  await db
    .insertInto("courier_messages")
    .values({
      id: message.id,
      type: message.channel,
      channel: message.channel,
      status: message.status,
      recipient: message.recipient,
      subject: message.subject,
      body: message.body,
      template_type: message.templateType,
      template_data: JSON.stringify(message.templateData),
      locale: message.locale,
      send_count: message.sendCount,
      next_attempt_at: message.nextAttemptAt.toISOString(),
      last_error: message.lastError ?? null,
      created_at: message.createdAt.toISOString(),
      updated_at: message.updatedAt.toISOString(),
    })
    .execute();
}

export function findMessage(db: Executor, id: string): Promise<CourierMessage | undefined> {
  return firstRow(db.selectFrom("courier_messages").selectAll().where("id", "=", id), toMessage);
}

/** The dispatch attempts of the given messages, newest first (as Kratos orders them). */
export async function findDispatches(
  db: Executor,
  messageIds: string[],
): Promise<Map<string, MessageDispatch[]>> {
  const out = new Map<string, MessageDispatch[]>();
  if (messageIds.length === 0) return out;
  const rows = await db
    .selectFrom("courier_message_dispatches")
    .selectAll()
    .where("message_id", "in", messageIds)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  for (const row of rows) {
    const list = out.get(row.message_id) ?? [];
    list.push({
      id: row.id,
      messageId: row.message_id,
      status: row.status === "success" ? "success" : "failed",
      error: row.error === null ? undefined : (JSON.parse(row.error) as Record<string, unknown>),
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
    });
    out.set(row.message_id, list);
  }
  return out;
}

export interface MessageFilter {
  status?: MessageStatus | undefined;
  recipient?: string | undefined;
}

/** Where a page starts: after this (created_at, id) in newest-first order. */
export interface MessageCursor {
  createdAt: string;
  id: string;
}

/** One page of messages, newest first, keyset-paginated on (created_at, id) like Kratos. */
export async function listMessages(
  db: Executor,
  filter: MessageFilter,
  pageSize: number,
  after: MessageCursor | undefined,
): Promise<{ messages: CourierMessage[]; hasMore: boolean }> {
  let query = db
    .selectFrom("courier_messages")
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(pageSize + 1);
  if (filter.status) query = query.where("status", "=", filter.status);
  if (filter.recipient) query = query.where("recipient", "=", filter.recipient);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", after.createdAt),
        eb.and([eb("created_at", "=", after.createdAt), eb("id", "<", after.id)]),
      ]),
    );
  }
  const rows = await query.execute();
  return { messages: rows.slice(0, pageSize).map(toMessage), hasMore: rows.length > pageSize };
}

/**
 * Takes the queued messages that are due for `worker`. Each is claimed by its own conditional
 * update (`… WHERE id = ? AND status = 'queued'`): when two processes pick the same message, only
 * the one whose update changed the row sends it, so no message is sent twice.
 */
export async function claimDueMessages(
  db: Executor,
  now: Date,
  limit: number,
  worker: string,
): Promise<CourierMessage[]> {
  const rows = await db
    .selectFrom("courier_messages")
    .selectAll()
    .where("status", "=", "queued")
    .where("next_attempt_at", "<=", now.toISOString())
    .orderBy("created_at")
    .orderBy("id")
    .limit(limit)
    .execute();
  const claimed: CourierMessage[] = [];
  for (const row of rows) {
    const result = await db
      .updateTable("courier_messages")
      .set({ status: "processing", claimed_by: worker, updated_at: now.toISOString() })
      .where("id", "=", row.id)
      .where("status", "=", "queued")
      .executeTakeFirst();
    if (result.numUpdatedRows === 1n) claimed.push({ ...toMessage(row), status: "processing" });
  }
  return claimed;
}

/** Who holds each "processing" message, and since when (its last update). */
export async function listClaims(
  db: Executor,
): Promise<{ id: string; claimedBy: string | null; updatedAt: string }[]> {
  const rows = await db
    .selectFrom("courier_messages")
    .select(["id", "claimed_by", "updated_at"])
    .where("status", "=", "processing")
    .execute();
  return rows.map((row) => ({ id: row.id, claimedBy: row.claimed_by, updatedAt: row.updated_at }));
}

/** Puts a "processing" message back in the queue, unless it changed since `updatedAt`. */
export async function requeueClaim(
  db: Executor,
  claim: { id: string; updatedAt: string },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable("courier_messages")
    .set({ status: "queued", updated_at: now.toISOString() })
    .where("id", "=", claim.id)
    .where("status", "=", "processing")
    .where("updated_at", "=", claim.updatedAt)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function updateDeliveryState(
  db: Executor,
  message: Pick<
    CourierMessage,
    "id" | "status" | "sendCount" | "nextAttemptAt" | "lastError" | "updatedAt"
  >,
): Promise<void> {
  await db
    .updateTable("courier_messages")
    .set({
      status: message.status,
      send_count: message.sendCount,
      next_attempt_at: message.nextAttemptAt.toISOString(),
      last_error: message.lastError ?? null,
      updated_at: message.updatedAt.toISOString(),
    })
    .where("id", "=", message.id)
    .execute();
}

export async function insertDispatch(db: Executor, dispatch: MessageDispatch): Promise<void> {
  await db
    .insertInto("courier_message_dispatches")
    .values({
      id: dispatch.id,
      message_id: dispatch.messageId,
      status: dispatch.status,
      error: dispatch.error ? JSON.stringify(dispatch.error) : null,
      created_at: dispatch.createdAt.toISOString(),
      updated_at: dispatch.updatedAt.toISOString(),
    })
    .execute();
}

/** The earliest time a queued message becomes due, to know when to look again. */
export async function nextDueAt(db: Executor): Promise<Date | undefined> {
  const row = await db
    .selectFrom("courier_messages")
    .select((eb) => eb.fn.min("next_attempt_at").as("due"))
    .where("status", "=", "queued")
    .executeTakeFirst();
  return row?.due ? new Date(row.due) : undefined;
}
