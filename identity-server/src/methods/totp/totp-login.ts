import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { ensureCsrf } from "../../flows/csrf-check.ts";
import type { Flow } from "../../flows/flow.ts";
import { csrfTokenFor } from "../../http/csrf.ts";
import { decodeFlowBody } from "../../http/flow-body.ts";
import type { Identity } from "../../identity/identity.ts";
import { totpUrlOf } from "../../identity/second-factors.ts";
import {
  ensureSecondFactorAllowed,
  recordSecondFactorPassed,
  recordWrongSecondFactor,
} from "../../rate-limit/rate-limits.ts";
import { claimTotpStep } from "../../store/totp-steps.ts";
import { uiText } from "../../text/messages.ts";
import { csrfNode, findInput, setNodeValue, upsertNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { matchingTotpStep } from "./totp-key.ts";
import { totpLoginCodeNode, totpLoginSubmitNode } from "./totp-nodes.ts";

const totpLoginFields = [
  { name: "csrf_token", type: "string" },
  { name: "method", type: "string" },
  { name: "totp_code", type: "string" },
  { name: "transient_payload", type: "object" },
] as const;

/** Second-factor form: the code and "Use Authenticator", when the identity has an app linked. */
export function populateTotpLogin(flow: Flow, identity: Identity): void {
  if (!totpUrlOf(identity)) return;
  upsertNode(flow.ui, totpLoginCodeNode());
  flow.ui.nodes.push(totpLoginSubmitNode());
}

/**
 * Kratos' totp login: the code of the current 30-second step or one step either side (4000008 in
 * `ui.messages` otherwise). Beyond Kratos, each step is accepted once per identity, so a code seen
 * over someone's shoulder cannot be replayed.
 */
export async function totpLogin(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
  identity: Identity,
): Promise<void> {
  try {
    const body = await decodeFlowBody(request, totpLoginFields);
    const code = typeof body.totp_code === "string" ? body.totp_code.trim() : "";
    if (code === "") {
      throw ValidationError.of("totp_code", uiText(4000002, { property: "totp_code" }));
    }
    ensureCsrf(
      ctx,
      request,
      flow,
      typeof body.csrf_token === "string" ? body.csrf_token : undefined,
    );
    const url = totpUrlOf(identity);
    if (!url) throw ValidationError.of("", uiText(4000011));
    ensureSecondFactorAllowed(ctx, identity.id);
    const now = ctx.now();
    const step = matchingTotpStep(url, code, now);
    if (step === undefined || !(await claimTotpStep(ctx.db, identity.id, step, now))) {
      recordWrongSecondFactor(ctx, identity.id);
      throw ValidationError.of("", uiText(4000008));
    }
    recordSecondFactorPassed(ctx, identity.id);
  } catch (error) {
    const codeNode = findInput(flow.ui, "totp_code");
    if (codeNode) setNodeValue(codeNode, undefined);
    if (flow.type === "browser") {
      upsertNode(flow.ui, csrfNode(csrfTokenFor(request, reply, ctx.cookies)));
    }
    throw error;
  }
}
