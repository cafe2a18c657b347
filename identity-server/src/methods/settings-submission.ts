import { ensureCsrf } from "../selfservice/csrf-check.ts";
import { ReauthenticationRequired } from "../selfservice/reauthentication.ts";
import { csrfTokenForFlowType } from "../http/csrf.ts";
import type { FieldSpec } from "../http/flow-body.ts";
import { isPrivileged } from "../session/privileged.ts";
import { addAuthenticationMethod } from "../session/session-manager.ts";
import type { Session } from "../session/session.ts";
import type { Executor } from "../store/schema.ts";
import { saveSession } from "../store/sessions.ts";
import type { ServerContext } from "../context.ts";
import { csrfNode, upsertNode } from "../ui/nodes.ts";
import type { SettingsStep } from "./settings-strategy.ts";

/**
 * Runs a settings strategy's `update` on the decoded submission once its CSRF token is checked, as
 * every Kratos settings strategy starts. Whatever it throws is answered with the form, so the form
 * first gets a fresh CSRF token, as Kratos' settings error handler issues one.
 */
export async function handleSettingsSubmission<T>(
  step: SettingsStep,
  fields: readonly FieldSpec[],
  update: (body: Record<string, unknown>) => Promise<T> | T,
): Promise<T> {
  const { ctx, request, reply, flow } = step;
  try {
    const body = step.body.fields(fields);
    ensureCsrf(
      ctx,
      request,
      flow,
      typeof body.csrf_token === "string" ? body.csrf_token : undefined,
    );
    return await update(body);
  } catch (error) {
    upsertNode(flow.ui, csrfNode(csrfTokenForFlowType(request, reply, ctx.cookies, flow.type)));
    throw error;
  }
}

/** Changing a credential needs a recently authenticated session; otherwise the user signs in again. */
export function requirePrivilegedSession(ctx: ServerContext, session: Session): void {
  if (!isPrivileged(ctx, session)) throw new ReauthenticationRequired();
}

/** Setting up a second factor proves the user holds it: the current session gains its aal2 entry. */
export async function recordSecondFactorProof(
  db: Executor,
  session: Session,
  method: "totp" | "lookup_secret" | "webauthn",
  now: Date,
): Promise<void> {
  addAuthenticationMethod(session, { method, aal: "aal2" }, now);
  await saveSession(db, session, undefined);
}
