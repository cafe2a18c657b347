import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { isJsonRequest } from "../../http/content-negotiation.ts";
import { csrfTokenFor, regenerateCsrfSecret } from "../../http/csrf.ts";
import { HerodotError } from "../../http/errors.ts";
import type { Identity, VerifiableAddress } from "../../identity/identity.ts";
import {
  activateSession,
  issueSessionCookie,
  newSession,
  persistSession,
} from "../../session/session-manager.ts";
import { insertFlow, updateFlow } from "../../store/flows.ts";
import { updateVerifiableAddress } from "../../store/identities.ts";
import { revokeOtherSessions } from "../../store/sessions.ts";
import { deleteTrustedDevicesOf } from "../../store/trusted-devices.ts";
import { uiText } from "../../text/messages.ts";
import {
  setOrySessionToken,
  showSettingsUi,
  type ContinueWith,
} from "../../selfservice/continue-with.ts";
import { uiUrl } from "../flow-errors.ts";
import { flowJson, type Flow } from "../../selfservice/flow.ts";
import { buildSettingsFlow } from "../settings/flow.ts";

/** The recovery flow's `return_to` moves to the settings flow (Kratos' TakeOverReturnToParameter). */
function takeOverReturnTo(from: string, to: string): string {
  const returnTo = new URL(from).searchParams.get("return_to");
  if (!returnTo) return to;
  const url = new URL(to);
  url.searchParams.set("return_to", returnTo);
  return url.toString();
}

/** 1060001 with how long the new session may still change credentials. */
function recoverySuccessful(ctx: ServerContext, now: Date) {
  const until = new Date(now.getTime() + ctx.config.privilegedSessionMaxAgeMs);
  const minutes = ((until.getTime() - now.getTime()) / 60_000).toFixed(2);
  return uiText(
    1060001,
    { minutes_until_privileged_session_expires_at: minutes },
    {
      privilegedSessionExpiresAt: until.toISOString(),
      privileged_session_expires_at: until.toISOString(),
      privileged_session_expires_at_unix: Math.floor(until.getTime() / 1000),
    },
  );
}

/**
 * Kratos' recoveryIssueSession with `use_continue_with_transitions` on: the recovery flow passes,
 * a privileged aal1 session (AMR `code_recovery`) is issued, the identity's other sessions are
 * revoked (when configured) as are all its trusted devices, and a settings flow with 1060001 is
 * where the user goes next: HTML
 * 303 to the settings UI, JSON and API 200 with `continue_with: [show_settings_ui]` (API first gets
 * `set_ory_session_token`). Everything is stored in one transaction.
 */
export async function completeRecovery(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  identity: Identity,
  verified: VerifiableAddress | undefined,
): Promise<FastifyReply> {
  if (identity.state !== "active") {
    throw new HerodotError(400, {
      id: "identity_disabled",
      message: "identity is disabled",
      reason: "This account was disabled.",
    });
  }
  const now = ctx.now();
  flow.ui.messages = undefined;
  flow.state = "passed_challenge";
  flow.identityId = identity.id;
  if (flow.type === "browser") {
    regenerateCsrfSecret(request, reply, ctx.cookies);
    flow.csrfToken = csrfTokenFor(request, reply, ctx.cookies);
  }

  const { session, token } = newSession(identity.id, now);
  activateSession(ctx, request, session, { method: "code_recovery", aal: "aal1" });

  const settings = await ctx.db.transaction().execute(async (trx) => {
    if (verified) await updateVerifiableAddress(trx, verified);
    await updateFlow(trx, flow, now);
    await persistSession(trx, session, token);
    if (ctx.config.recoveryRevokesSessions) {
      await revokeOtherSessions(trx, identity.id, session.id, now);
    }
    // Whoever recovered the account may not be its owner: no browser keeps skipping the 2nd factor.
    await deleteTrustedDevicesOf(trx, identity.id);
    const created = await buildSettingsFlow(ctx, trx, request, reply, identity, flow.type);
    created.requestUrl = takeOverReturnTo(flow.requestUrl, created.requestUrl);
    created.returnTo = new URL(created.requestUrl).searchParams.get("return_to") || undefined;
    created.locale = flow.locale;
    created.ui.messages = [recoverySuccessful(ctx, now)];
    await insertFlow(trx, created);
    return created;
  });

  const continueWith: ContinueWith[] = [];
  if (flow.type === "browser") {
    await issueSessionCookie(ctx, request, reply, session, token);
  } else {
    continueWith.push(setOrySessionToken(token));
  }
  const settingsUrl = uiUrl(ctx, "/settings", settings.id);
  if (flow.type === "api" || isJsonRequest(request)) {
    flow.continueWith = [...continueWith, showSettingsUi(settings.id, settingsUrl)];
    return reply.send(flowJson(flow));
  }
  return reply.redirect(settingsUrl, 303);
}
