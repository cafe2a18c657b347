import { randomInt, randomUUID } from "node:crypto";
import type { Executor } from "./schema.ts";

/** The two halves of a session token exchange (Kratos: 64 random alphanumerics each). */
export interface ExchangeCodes {
  initCode: string;
  returnToCode: string;
}

export interface Exchanger extends ExchangeCodes {
  id: string;
  flowId: string;
}

const alphanumeric = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function randomCode(): string {
  let out = "";
  for (let i = 0; i < 64; i++) out += alphanumeric[randomInt(alphanumeric.length)];
  return out;
}

export function newExchangeCodes(): ExchangeCodes {
  return { initCode: randomCode(), returnToCode: randomCode() };
}

/** Stores the exchanger of a (stored) flow. */
export async function insertExchanger(
  db: Executor,
  flowId: string,
  codes: ExchangeCodes,
  now: Date,
): Promise<void> {
  await db
    .insertInto("session_token_exchanges")
    .values({
      id: randomUUID(),
      flow_id: flowId,
      init_code: codes.initCode,
      return_to_code: codes.returnToCode,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
}

/** The exchanger both codes name (empty codes never match). */
export async function findExchanger(
  db: Executor,
  codes: ExchangeCodes,
): Promise<Exchanger | undefined> {
  if (codes.initCode === "" || codes.returnToCode === "") return undefined;
  const row = await db
    .selectFrom("session_token_exchanges")
    .selectAll()
    .where("init_code", "=", codes.initCode)
    .where("return_to_code", "=", codes.returnToCode)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    flowId: row.flow_id,
    initCode: row.init_code,
    returnToCode: row.return_to_code,
  };
}
