import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { isJsonRequest } from "../../http/content-negotiation.ts";
import { forbidden, HerodotError } from "../../http/errors.ts";
import { secureRedirectTo } from "../../http/return-to.ts";
import type { Identity } from "../../identity/identity.ts";
import { FlowBody } from "../../http/flow-body.ts";
import type { SettingsOutcome } from "../../methods/settings-outcome.ts";
import { settingsStrategyFor } from "../../methods/settings-strategies.ts";
import { aal2LoginUrl, aal2Required, satisfiesAal } from "../../session/aal-policy.ts";
import { sessionRefreshRequired } from "../../session/errors.ts";
import {
  fetchSession,
  issueSessionCookie,
  type ActiveSession,
} from "../../session/session-manager.ts";
import { findFlow, insertFlow, updateFlow } from "../../store/flows.ts";
import { DuplicateIdentityError, findIdentity, updateIdentity } from "../../store/identities.ts";
import { uiText } from "../../text/messages.ts";
import { resetMessages, sortNodes } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { redirectBrowserTo } from "../../selfservice/continue-with.ts";
import { sendError } from "../../http/send-error.ts";
import { ensureFlowValid, uiUrl, writeFlowError, type FlowErrorPolicy } from "../flow-errors.ts";
import { flowIdFromQuery } from "../../selfservice/flow-id.ts";
import type { Flow, FlowType } from "../../selfservice/flow.ts";
import { ReauthenticationRequired } from "../../selfservice/reauthentication.ts";
import { buildSettingsFlow, populateSettings, renderSettingsFlow, settingsSort } from "./flow.ts";
import { startVerification } from "../verification/flow.ts";
import { answerUnauthenticated } from "./routes.ts";

function errorPolicy(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  identity: Identity,
): FlowErrorPolicy {
  return {
    kind: "settings",
    uiPath: "/settings",
    redirectStatus: 303,
    expiredMessageId: 4050001,
    expiredAnswer: "gone",
    sortOptions: settingsSort(ctx),
    async replace(old) {
      const replacement = await buildSettingsFlow(ctx, ctx.db, request, reply, identity, old.type);
      replacement.requestUrl = old.requestUrl;
      replacement.returnTo = old.returnTo;
      await insertFlow(ctx.db, replacement);
      return replacement;
    },
    render: (flow) => renderSettingsFlow(ctx, flow),
  };
}

export function identityMismatch(reason: string): HerodotError {
  return forbidden(reason, { id: "security_identity_mismatch" });
}

/**
 * A change that needs a fresh sign-in: 403 `session_refresh_required` for JSON and API clients,
 * a 303 for browsers, both pointing at a refresh login that returns to this submission.
 */
function answerReauthentication(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
): FastifyReply {
  const login = new URL(`${ctx.config.publicBaseUrl}/self-service/login/browser`);
  login.searchParams.set("refresh", "true");
  login.searchParams.set("return_to", `${ctx.config.publicBaseUrl}${request.url}`);
  const target = login.toString();
  if (flow.type === "api" || isJsonRequest(request)) {
    return sendError(reply, sessionRefreshRequired(target));
  }
  return reply.redirect(target, 303);
}

/**
 * The settings AAL policy (`required_aal`): an aal1 session of an identity with a second factor
 * must complete it first. `returnTo` is where the aal2 login sends the browser back to.
 */
export function settingsAalError(
  ctx: ServerContext,
  active: ActiveSession,
  returnTo: string | undefined,
): HerodotError | undefined {
  const required = ctx.config.secondFactor.settingsRequiredAal;
  if (satisfiesAal(ctx, active.session, active.identity, required)) return undefined;
  return aal2Required(aal2LoginUrl(ctx, { returnTo }));
}

/** JSON and API clients get the 403 `session_aal2_required`; browsers go to the aal2 login. */
export function answerAal2Required(
  request: FastifyRequest,
  reply: FastifyReply,
  error: HerodotError,
  type: FlowType,
): FastifyReply {
  if (type === "api" || isJsonRequest(request)) return sendError(reply, error);
  return reply.redirect(String(error.extra.redirect_browser_to), 303);
}

/**
 * Kratos' PostSettingsHook: saves the identity (with the strategy's side effects in the same
 * transaction), rebuilds the whole form with 1050001 and state `success`, sends a verification
 * code to a new address, then answers per client.
 */
async function completeSettings(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  active: ActiveSession,
  outcome: Extract<SettingsOutcome, { kind: "save" }>,
): Promise<FastifyReply> {
  let updated = outcome.identity;
  const returnTo = secureRedirectTo(ctx.returnToPolicy, {
    sourceUrl: flow.requestUrl,
    defaultReturnUrl: uiUrl(ctx, "/settings", flow.id),
  });
  const done: Flow = { ...flow, state: "success", ui: { ...flow.ui, nodes: [] } };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      // The change on the identity as stored now, not on the session's older copy.
      const current = outcome.rebase ? await findIdentity(trx, updated.id) : undefined;
      if (current && outcome.rebase) updated = outcome.rebase(current);
      await updateIdentity(trx, updated);
      await outcome.effects?.(trx);
      await populateSettings(ctx, trx, request, reply, done, updated);
      done.ui.messages = [uiText(1050001)];
      await updateFlow(trx, done, ctx.now());
      // The auto verification hook: the first address nobody has sent a code to yet gets one.
      await startVerification(
        trx,
        ctx,
        request,
        reply,
        done,
        updated,
        (a) => a.status === "pending",
      );
    });
  } catch (error) {
    if (error instanceof DuplicateIdentityError) throw ValidationError.of("", uiText(4000007));
    throw error;
  }

  if (flow.type === "api") return reply.send(await renderSettingsFlow(ctx, done));
  await issueSessionCookie(ctx, request, reply, active.session, active.token);
  if (isJsonRequest(request)) {
    done.continueWith = [redirectBrowserTo(returnTo)];
    return reply.send(await renderSettingsFlow(ctx, done));
  }
  return reply.redirect(returnTo, 303);
}

/**
 * A strategy changed the form itself (backup codes revealed or generated): messages cleared, the
 * flow stored and answered as it is, 200 to JSON and API clients, 303 to the UI for browsers.
 */
async function showSettingsForm(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
): Promise<FastifyReply> {
  resetMessages(flow.ui);
  flow.ui.nodes = sortNodes(flow.ui.nodes, settingsSort(ctx));
  await updateFlow(ctx.db, flow, ctx.now());
  if (flow.type === "api" || isJsonRequest(request)) {
    return reply.send(await renderSettingsFlow(ctx, flow));
  }
  return reply.redirect(uiUrl(ctx, "/settings", flow.id), 303);
}

export async function submitSettings(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const active = await fetchSession(ctx, request);
  if (!active) return answerUnauthenticated(ctx, request, reply);
  const policy = errorPolicy(ctx, request, reply, active.identity);
  let flow: Flow | undefined;
  try {
    flow = await findFlow(ctx.db, "settings", flowIdFromQuery(request.query));
    if (!flow) {
      throw new HerodotError(404, {
        reason: "The settings request could not be found. Please restart the flow.",
      });
    }
  } catch (error) {
    return writeFlowError(ctx, request, reply, undefined, error, policy);
  }
  const aalError = settingsAalError(ctx, active, `${ctx.config.publicBaseUrl}${request.url}`);
  if (aalError) return answerAal2Required(request, reply, aalError, flow.type);
  try {
    ensureFlowValid(flow, ctx.now());
    if (flow.identityId !== active.identity.id) {
      throw identityMismatch(
        "The request was initiated by someone else and has been blocked for security reasons. Please go back and try again.",
      );
    }
    // The one read of the submission: every strategy decodes its fields from it.
    const body = await FlowBody.read(request);
    const strategy = settingsStrategyFor(body);
    // Back from a refresh login, a browser lands here by GET without a form; show it the flow.
    if (request.method === "GET" && strategy === undefined && !isJsonRequest(request)) {
      return reply.redirect(uiUrl(ctx, "/settings", flow.id), 303);
    }
    if (!strategy) throw ValidationError.of("", uiText(4010004));
    const { session, identity } = active;
    const outcome = await strategy.update({ ctx, request, reply, flow, body, session, identity });
    if (outcome.kind === "show-form") return await showSettingsForm(ctx, request, reply, flow);
    return await completeSettings(ctx, request, reply, flow, active, outcome);
  } catch (error) {
    if (error instanceof ReauthenticationRequired) {
      return answerReauthentication(ctx, request, reply, flow);
    }
    return writeFlowError(ctx, request, reply, flow, error, policy);
  }
}
