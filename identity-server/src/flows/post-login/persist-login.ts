import type { Executor } from "../../store/schema.ts";
import { persistSession } from "../../session/session-manager.ts";
import { updateFlow, updateFlowActiveMethod } from "../../store/flows.ts";
import type { LoginCompletion, LoginSession } from "./login-completion.ts";

/**
 * What a flow stores with the session, in the same transaction: `before` the session (a new
 * identity, which the session refers to) and `after` it (a trusted device, a verification flow
 * that needs the session); `after`'s result is returned.
 */
export interface LoginWrites<T> {
  before?(trx: Executor): Promise<void>;
  after(trx: Executor): Promise<T>;
}

/**
 * One transaction for what the login (or the registration that signs in) changes: the flow (with
 * its active method), the session and the flow's own writes.
 */
export async function persistLogin<T>(
  c: LoginCompletion,
  login: LoginSession,
  writes: LoginWrites<T>,
): Promise<T> {
  const { ctx, flow, factor } = c;
  flow.active = factor.method;
  return ctx.db.transaction().execute(async (trx) => {
    await writes.before?.(trx);
    // The password strategy leaves the stored flow as it was, but for the active method.
    if (factor.method === "password") await updateFlowActiveMethod(trx, flow, c.now);
    else await updateFlow(trx, flow, c.now);
    await persistSession(trx, login.session, login.token, { isNew: !login.reused });
    return writes.after(trx);
  });
}
