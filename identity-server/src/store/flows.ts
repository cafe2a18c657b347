import { CompiledQuery } from "kysely";
import type { Flow, FlowKind, FlowType } from "../selfservice/flow.ts";
import type { Executor, FlowsTable } from "./schema.ts";
import { internalContextSql } from "./flow-ceremonies.ts";
import { uiJsonOf, withStoredUi } from "./stored-flow-ui.ts";

function toRow(flow: Flow): FlowsTable {
  return {
    id: flow.id,
    kind: flow.kind,
    type: flow.type,
    state: flow.state,
    request_url: flow.requestUrl,
    return_to: flow.returnTo ?? null,
    ui: uiJsonOf(flow),
    csrf_token: flow.csrfToken,
    internal_context: JSON.stringify(flow.internalContext),
    active_method: flow.active ?? null,
    refresh: flow.refresh ? 1 : 0,
    requested_aal: flow.requestedAal,
    issued_at: flow.issuedAt.toISOString(),
    expires_at: flow.expiresAt.toISOString(),
    created_at: flow.createdAt.toISOString(),
    updated_at: flow.updatedAt.toISOString(),
    submit_count: flow.submitCount,
    identity_id: flow.identityId ?? null,
    locale: flow.locale,
    session_token_exchange_code: flow.sessionTokenExchangeCode ?? null,
    oauth2_login_challenge: flow.oauth2LoginChallenge ?? null,
  };
}

function fromRow(row: FlowsTable): Flow {
  const flow: Omit<Flow, "ui"> = {
    id: row.id,
    kind: row.kind as FlowKind,
    type: row.type as FlowType,
    state: row.state,
    requestUrl: row.request_url,
    returnTo: row.return_to ?? undefined,
    csrfToken: row.csrf_token,
    internalContext: JSON.parse(row.internal_context) as Record<string, unknown>,
    active: row.active_method ?? undefined,
    refresh: row.refresh === 1,
    requestedAal: row.requested_aal,
    issuedAt: new Date(row.issued_at),
    expiresAt: new Date(row.expires_at),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    submitCount: row.submit_count,
    identityId: row.identity_id ?? undefined,
    locale: row.locale ?? "en",
    sessionTokenExchangeCode: row.session_token_exchange_code ?? undefined,
    oauth2LoginChallenge: row.oauth2_login_challenge ?? undefined,
  };
  return withStoredUi(flow, row.ui);
}

// Every flow creation inserts a flow and every submission reads one (a sign-in also saves its
// active method): fixed statement texts, so Kysely neither builds nor compiles a query per call.
const flowColumns = [
  "id",
  "kind",
  "type",
  "state",
  "request_url",
  "return_to",
  "ui",
  "csrf_token",
  "internal_context",
  "active_method",
  "refresh",
  "requested_aal",
  "issued_at",
  "expires_at",
  "created_at",
  "updated_at",
  "submit_count",
  "identity_id",
  "locale",
  "session_token_exchange_code",
  "oauth2_login_challenge",
] as const satisfies readonly (keyof FlowsTable)[];
const insertFlowStatement =
  `insert into "selfservice_flows" (${flowColumns.map((c) => `"${c}"`).join(", ")}) ` +
  `values (${flowColumns.map(() => "?").join(", ")})`;
const findFlowStatement = `select * from "selfservice_flows" where "id" = ? and "kind" = ?`;
const activeMethodStatement = `update "selfservice_flows" set "active_method" = ?, "updated_at" = ? where "id" = ?`;

export async function insertFlow(db: Executor, flow: Flow): Promise<void> {
  const row = toRow(flow);
  await db.executeQuery(
    CompiledQuery.raw(
      insertFlowStatement,
      flowColumns.map((column) => row[column]),
    ),
  );
}

/**
 * Saves the flow; the submit counter is left alone because only `incrementSubmitCount` moves it,
 * and so are the stored ceremony challenges this request did not issue (flow-ceremonies.ts).
 */
export async function updateFlow(db: Executor, flow: Flow, now: Date): Promise<void> {
  flow.updatedAt = now;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { id, submit_count, internal_context, ...rest } = toRow(flow);
  await db
    .updateTable("selfservice_flows")
    .set({ ...rest, internal_context: internalContextSql(flow, internal_context) })
    .where("id", "=", id)
    .execute();
}

/**
 * Saves only `active` (and `updated_at`): for a flow whose other stored fields are unchanged since
 * it was read, the same row as `updateFlow` writes, without re-serialising the UI.
 */
export async function updateFlowActiveMethod(db: Executor, flow: Flow, now: Date): Promise<void> {
  flow.updatedAt = now;
  await db.executeQuery(
    CompiledQuery.raw(activeMethodStatement, [flow.active ?? null, now.toISOString(), flow.id]),
  );
}

/**
 * Counts one more code submission and returns the new count, in its own statement so that
 * concurrent guesses are all counted (Kratos' incrementOTPCodeSubmitCount).
 */
export async function incrementSubmitCount(db: Executor, flowId: string): Promise<number> {
  const row = await db
    .updateTable("selfservice_flows")
    .set((eb) => ({ submit_count: eb("submit_count", "+", 1) }))
    .where("id", "=", flowId)
    .returning("submit_count")
    .executeTakeFirst();
  return row?.submit_count ?? 0;
}

export async function findFlow(
  db: Executor,
  kind: FlowKind,
  id: string,
): Promise<Flow | undefined> {
  const { rows } = await db.executeQuery<FlowsTable>(
    CompiledQuery.raw(findFlowStatement, [id, kind]),
  );
  const row = rows[0];
  return row ? fromRow(row) : undefined;
}
