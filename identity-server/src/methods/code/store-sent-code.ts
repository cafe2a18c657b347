import { randomUUID } from "node:crypto";
import type { ServerContext } from "../../context.ts";
import { insertCode, type CodeKind } from "../../store/codes.ts";
import type { Executor } from "../../store/schema.ts";
import { hmacCode } from "./one-time-code.ts";

/** A code a self-service flow sends to one address (recovery, verification, login). */
export interface SentCode {
  flowId: string;
  kind: CodeKind;
  identityId: string;
  address: string;
  channel: "email" | "sms";
  /** The code as sent; only its HMAC is stored. */
  code: string;
  issuedAt: Date;
}

/** Stores a sent code, usable for the configured code lifespan (IDENTITY_CODE_LIFESPAN). */
export async function storeSentCode(db: Executor, ctx: ServerContext, sent: SentCode) {
  await insertCode(db, {
    id: randomUUID(),
    flowId: sent.flowId,
    kind: sent.kind,
    hmac: hmacCode(ctx.secret, sent.code),
    type: "self_service",
    identityId: sent.identityId,
    addressValue: sent.address,
    addressVia: sent.channel,
    usedAt: undefined,
    expiresAt: new Date(sent.issuedAt.getTime() + ctx.config.codeLifespanMs),
    issuedAt: sent.issuedAt,
  });
}
