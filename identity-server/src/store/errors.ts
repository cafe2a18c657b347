import type { Executor } from "./schema.ts";

export interface StoredError {
  id: string;
  error: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export async function insertError(
  db: Executor,
  id: string,
  error: Record<string, unknown>,
  csrfToken: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto("selfservice_errors")
    .values({
      id,
      error: JSON.stringify(error),
      csrf_token: csrfToken,
      was_seen: 0,
      seen_at: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
}

/** Reads the error and marks it seen, in one transaction as Kratos does. */
export async function readError(
  db: Executor,
  id: string,
  now: Date,
): Promise<StoredError | undefined> {
  const row = await db
    .selectFrom("selfservice_errors")
    .selectAll()
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  await db
    .updateTable("selfservice_errors")
    .set({ was_seen: 1, seen_at: now.toISOString() })
    .where("id", "=", id)
    .execute();
  return {
    id: row.id,
    error: JSON.parse(row.error) as Record<string, unknown>,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}
