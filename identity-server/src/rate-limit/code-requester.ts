import type { FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import type { Flow } from "../selfservice/flow.ts";
import { hashToken } from "../session/session.ts";
import { extractSessionToken } from "../session/session-manager.ts";
import { findSessionByTokenHash } from "../store/sessions.ts";
import type { Executor } from "../store/schema.ts";
import { deviceKeysOf } from "./device-cookie.ts";
import type { CodeSend } from "./rate-limits.ts";

/**
 * Who asks for a code: the client IP and what the request proves about accounts. A browser flow's
 * device cookie (src/rate-limit/device-cookie.ts) names the accounts that signed in from it; a
 * session (cookie or token) names its account. Both are read before the address is looked up and
 * whatever address is asked for, so the work done does not depend on whether it has an account.
 * Pass the open transaction as `db` when there is one (SQLite has one connection).
 */
export interface CodeRequester {
  ip: string;
  /** The requester's own budget for sends to the account's addresses, when it has proven to be it. */
  ownBudgetFor(identityId: string | undefined): CodeSend["own"];
}

export async function codeRequesterOf(
  ctx: ServerContext,
  request: FastifyRequest,
  flow: Flow,
  db: Executor = ctx.db,
): Promise<CodeRequester> {
  // Browser flows only, as for passwords: API clients neither get nor send the device cookie.
  const devices =
    flow.type === "browser"
      ? await deviceKeysOf(request, ctx.cookies, db)
      : new Map<string, string>();
  const token = extractSessionToken(ctx, request);
  const found = token ? await findSessionByTokenHash(db, hashToken(token)) : undefined;
  const session = found?.active && found.expiresAt > ctx.now() ? found : undefined;
  return {
    ip: request.ip,
    ownBudgetFor(identityId) {
      if (identityId === undefined) return undefined;
      const device = devices.get(identityId);
      if (device !== undefined) return { kind: "device", key: device };
      if (session?.identityId === identityId) return { kind: "session", key: session.id };
      return undefined;
    },
  };
}
