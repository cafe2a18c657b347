import type { Executor } from "./schema.ts";

export type CodeKind = "recovery" | "verification" | "login";
/** Self-service codes were sent to an address; admin codes were handed to an operator. */
export type CodeType = "self_service" | "admin" | "admin_link";

export interface StoredCode {
  id: string;
  flowId: string;
  kind: CodeKind;
  hmac: string;
  type: CodeType;
  identityId: string;
  addressValue: string | undefined;
  addressVia: "email" | "sms" | undefined;
  usedAt: Date | undefined;
  expiresAt: Date;
  issuedAt: Date;
}

export async function insertCode(db: Executor, code: StoredCode): Promise<void> {
  await db
    .insertInto("one_time_codes")
    .values({
      id: code.id,
      flow_id: code.flowId,
      kind: code.kind,
      code_hmac: code.hmac,
      code_type: code.type,
      identity_id: code.identityId,
      address_value: code.addressValue ?? null,
      address_via: code.addressVia ?? null,
      used_at: null,
      expires_at: code.expiresAt.toISOString(),
      issued_at: code.issuedAt.toISOString(),
      created_at: code.issuedAt.toISOString(),
    })
    .execute();
}

/** A resend invalidates everything sent before for the flow. */
export async function deleteCodesOfFlow(db: Executor, flowId: string): Promise<void> {
  await db.deleteFrom("one_time_codes").where("flow_id", "=", flowId).execute();
}

export async function codesOfFlow(
  db: Executor,
  flowId: string,
  kind: CodeKind,
): Promise<StoredCode[]> {
  const rows = await db
    .selectFrom("one_time_codes")
    .selectAll()
    .where("flow_id", "=", flowId)
    .where("kind", "=", kind)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    flowId: row.flow_id,
    kind: row.kind as CodeKind,
    hmac: row.code_hmac,
    type: row.code_type as CodeType,
    identityId: row.identity_id,
    addressValue: row.address_value ?? undefined,
    addressVia:
      row.address_via === "sms" ? "sms" : row.address_via === "email" ? "email" : undefined,
    usedAt: row.used_at ? new Date(row.used_at) : undefined,
    expiresAt: new Date(row.expires_at),
    issuedAt: new Date(row.issued_at),
  }));
}

/** Marks the code used unless someone else did first; returns whether this call consumed it. */
export async function consumeCode(db: Executor, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("one_time_codes")
    .set({ used_at: now.toISOString() })
    .where("id", "=", id)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
