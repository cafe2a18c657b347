import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { csrfTokenFor } from "../../http/csrf.ts";
import { badRequest } from "../../http/errors.ts";
import type { FlowBody } from "../../http/flow-body.ts";
import type { Identity } from "../../identity/identity.ts";
import { normalizeAddress } from "../../identity/normalize.ts";
import { codeMfaAddressesOf, type CodeMfaAddress } from "./mfa-addresses.ts";
import { deleteCodesOfFlow } from "../../store/codes.ts";
import { updateFlow } from "../../store/flows.ts";
import { codeRequesterOf } from "../../rate-limit/code-requester.ts";
import {
  ensureSecondFactorAllowed,
  recordSecondFactorPassed,
  recordWrongSecondFactor,
  takeCodeSend,
} from "../../rate-limit/rate-limits.ts";
import { asLocale } from "../../text/locale.ts";
import { uiText } from "../../text/messages.ts";
import { csrfNode, upsertNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { missingValue, runMethodStep, stringValue } from "../method-step.ts";
import { sessionIdentityOf, type LoginStep, type LoginStrategy } from "../login-strategy.ts";
import { addressSubmitNode, codeSentNodes } from "./mfa-login-nodes.ts";
import { generateCode } from "./one-time-code.ts";
import { channelOf } from "./send-code.ts";
import { CodeNotFoundError, useOneTimeCode } from "./use-code.ts";
import { storeSentCode } from "./store-sent-code.ts";
import { methodFields } from "../../selfservice/method-fields.ts";

const codeLoginFields = methodFields({
  code: "string",
  identifier: "string",
  address: "string",
  resend: "string",
});

/**
 * Kratos hands a submission with an `address` to the code strategy even without `method`. The
 * strategy decodes its whole payload to decide, so a malformed `transient_payload` fails here.
 */
function isCodeLoginSubmission(body: FlowBody): boolean {
  const values = body.fields(codeLoginFields);
  return values.method === "code" || typeof values.address === "string";
}

/**
 * The identity's code addresses (Kratos sorts them), narrowed to the trait named by the login's
 * `via` query parameter when one is given (400 when that trait is no code address).
 */
function codeAddresses(identity: Identity, via: string | null): CodeMfaAddress[] {
  const addresses = [...codeMfaAddressesOf(identity)].sort((a, b) =>
    a.address < b.address ? -1 : a.address > b.address ? 1 : 0,
  );
  if (!via) return addresses;
  const value = identity.traits[via];
  if (typeof value !== "string" || value === "") {
    throw badRequest(`No value found for trait ${via} in the current identity.`);
  }
  const wanted = normalizeAddress(value, channelOf(value));
  const match = addresses.find((a) => a.address === wanted);
  if (!match) {
    throw badRequest(
      "You can only reference a trait that matches a verification email address in the via parameter, or a registered credential.",
    );
  }
  return [match];
}

/** choose_method of a second-factor login: one "Send code to …" per address. */
function populateCodeMfaLogin(ctx: ServerContext, flow: Flow, identity: Identity): void {
  if (!ctx.config.secondFactor.codeMfaEnabled) return;
  const via = new URL(flow.requestUrl).searchParams.get("via");
  for (const address of codeAddresses(identity, via))
    flow.ui.nodes.push(addressSubmitNode(address));
}

type CodeMfaLoginResult = "code-sent" | "verified";

/** Sends a fresh code (earlier ones of the flow are deleted) and shows the code form. */
async function sendLoginCode(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  identity: Identity,
  address: CodeMfaAddress,
): Promise<void> {
  // The person proved the password in this flow: their browser's device cookie (set by that
  // sign-in) or their session gives them a budget of their own, so strangers asking for codes to
  // the address cannot keep them from their second factor.
  const requester = await codeRequesterOf(ctx, request, flow);
  takeCodeSend(ctx, {
    address: address.address,
    ip: requester.ip,
    own: requester.ownBudgetFor(identity.id),
  });
  const code = generateCode();
  const now = ctx.now();
  flow.state = "sent_email";
  flow.active = "code";
  flow.ui.nodes = codeSentNodes(address);
  if (flow.type === "browser") {
    upsertNode(flow.ui, csrfNode(csrfTokenFor(request, reply, ctx.cookies)));
  }
  flow.ui.messages = [uiText(1010025)];
  await ctx.db.transaction().execute(async (trx) => {
    await deleteCodesOfFlow(trx, flow.id);
    await storeSentCode(trx, ctx, {
      flowId: flow.id,
      kind: "login",
      identityId: identity.id,
      address: address.address,
      channel: address.channel,
      code,
      issuedAt: now,
    });
    await ctx.courier.queue(trx, {
      channel: address.channel,
      recipient: address.address,
      templateType: "login_code_valid",
      locale: asLocale(flow.locale),
      data: { code, expiresInMinutes: Math.floor(ctx.config.codeLifespanMs / 60_000) },
    });
    await updateFlow(trx, flow, now);
  });
}

/**
 * Kratos' code strategy as a second factor. choose_method (or `resend=code`): the submitted
 * address must be one of the identity's code addresses (4000035), a code is sent and the flow
 * moves to `sent_email`. sent_email: the code is checked under the flow's submission limit
 * (4010008 when wrong; the sixth try is refused) and the flow passes.
 */
async function codeMfaLogin(step: LoginStep, identity: Identity): Promise<CodeMfaLoginResult> {
  const { ctx, request, reply, flow } = step;
  return runMethodStep(step, { fields: codeLoginFields }, async (body) => {
    if (body.resend === "code") flow.state = "choose_method";

    if (flow.state === "choose_method") {
      const typed = (stringValue(body.address) || stringValue(body.identifier) || "").trim();
      if (typed === "") throw new ValidationError([missingValue("identifier")]);
      const wanted = typed.includes("@") ? typed.toLowerCase() : typed;
      const address = codeMfaAddressesOf(identity).find((a) => a.address === wanted);
      if (!ctx.config.secondFactor.codeMfaEnabled || !address) {
        throw ValidationError.of("", uiText(4000035));
      }
      await sendLoginCode(ctx, request, reply, flow, identity, address);
      return "code-sent";
    }

    if (flow.state !== "sent_email") throw ValidationError.of("", uiText(4010002));
    const code = stringValue(body.code)?.trim() ?? "";
    if (code === "") throw new ValidationError([missingValue("code")]);
    try {
      ensureSecondFactorAllowed(ctx, identity.id);
      const used = await useOneTimeCode(ctx, flow, "login", code);
      if (used.identityId !== identity.id) throw new CodeNotFoundError();
      recordSecondFactorPassed(ctx, identity.id);
    } catch (error) {
      if (error instanceof CodeNotFoundError) {
        recordWrongSecondFactor(ctx, identity.id);
        throw ValidationError.of("", uiText(4010008));
      }
      throw error;
    }
    flow.state = "passed_challenge";
    flow.active = "code";
    return "verified";
  });
}

/** Codes sent to a verified address as a second factor (when `code.mfa_enabled`). */
export const codeLoginStrategy: LoginStrategy = {
  id: "code",
  group: "code",
  aal: "aal2",
  configured: (identity, config) =>
    config.codeMfaEnabled && codeMfaAddressesOf(identity).length > 0,
  responsible: isCodeLoginSubmission,
  populate(ctx, flow, identity) {
    if (identity) populateCodeMfaLogin(ctx, flow, identity);
  },
  async submit(step) {
    const identity = sessionIdentityOf(step);
    const result = await codeMfaLogin(step, identity);
    return result === "code-sent" ? { kind: "continue" } : { kind: "authenticated", identity };
  },
};
