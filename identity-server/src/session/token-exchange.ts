import type { FastifyInstance } from "fastify";
import type { ServerContext } from "../context.ts";
import { sendError } from "../http/send-error.ts";
import { flowJson, type Flow } from "../selfservice/flow.ts";
import { badRequest, HerodotError } from "../http/errors.ts";
import { findFlow, insertFlow } from "../store/flows.ts";
import {
  findExchanger,
  insertExchanger,
  newExchangeCodes,
} from "../store/session-token-exchanges.ts";
import type { Executor } from "../store/schema.ts";

/**
 * API login and registration flows created with `return_session_token_exchange_code=true` get an
 * exchanger: the flow carries its init code (`session_token_exchange_code`). Kratos parses the
 * flag with strconv.ParseBool for login and compares it with "true" for registration.
 */
export function wantsSessionTokenExchange(flow: Flow): boolean {
  if (flow.type !== "api") return false;
  const value = new URL(flow.requestUrl).searchParams.get("return_session_token_exchange_code");
  if (flow.kind === "registration") return value === "true";
  return ["1", "t", "T", "TRUE", "true", "True"].includes(value ?? "");
}

/** Gives the (not yet stored) flow its init code; call `storeSessionTokenExchange` after storing it. */
export function prepareSessionTokenExchange(
  flow: Flow,
): (db: Executor, now: Date) => Promise<void> {
  const codes = newExchangeCodes();
  flow.sessionTokenExchangeCode = codes.initCode;
  return (db, now) => insertExchanger(db, flow.id, codes, now);
}

/** Stores a new login or registration flow and, when it got one, its exchanger in one transaction. */
export async function insertFlowWithExchange(
  ctx: ServerContext,
  flow: Flow,
  storeExchange: ((db: Executor, now: Date) => Promise<void>) | undefined,
): Promise<void> {
  // A lone insert is its own transaction (same durability, two statements fewer).
  if (!storeExchange) return insertFlow(ctx.db, flow);
  await ctx.db.transaction().execute(async (trx) => {
    await insertFlow(trx, flow);
    await storeExchange(trx, ctx.now());
  });
}

const noSessionYet = () => new HerodotError(404, { reason: 'no session yet for this "code"' });

/**
 * GET /sessions/token-exchange?init_code&return_to_code (Kratos' exchangeCode). Both codes are
 * needed (400); a pair that names no exchanger is 404. Kratos answers 200 with the session token
 * once the flow's session is recorded on the exchanger, which only happens when an API flow
 * finishes in a browser (social sign-in, whose redirect is also the only place the return_to code
 * is revealed); this server has no such method, native flows get their token in the submit
 * answer. A known pair is therefore always "pending": 422 with the login or registration flow.
 */
export function registerTokenExchangeRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.get("/sessions/token-exchange", async (request, reply) => {
    try {
      const query = request.query as Record<string, unknown>;
      const initCode = typeof query.init_code === "string" ? query.init_code : "";
      const returnToCode = typeof query.return_to_code === "string" ? query.return_to_code : "";
      if (initCode === "" || returnToCode === "") {
        throw badRequest('"init_code" and "return_to_code" query params must be set');
      }
      const exchanger = await findExchanger(ctx.db, { initCode, returnToCode });
      if (!exchanger) throw noSessionYet();
      const flow =
        (await findFlow(ctx.db, "registration", exchanger.flowId)) ??
        (await findFlow(ctx.db, "login", exchanger.flowId));
      if (!flow) throw noSessionYet();
      return reply.code(422).send(flowJson(flow));
    } catch (error) {
      return sendError(reply, error);
    }
  });
}
