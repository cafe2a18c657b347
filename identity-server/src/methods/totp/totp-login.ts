import type { Flow } from "../../flows/flow.ts";
import type { Identity } from "../../identity/identity.ts";
import {
  ensureSecondFactorAllowed,
  recordSecondFactorPassed,
  recordWrongSecondFactor,
} from "../../rate-limit/rate-limits.ts";
import { claimTotpStep } from "../../store/totp-steps.ts";
import { uiText } from "../../text/messages.ts";
import { upsertNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import {
  clearInput,
  missingValue,
  runLoginStep,
  stringValue,
  type LoginForm,
  type LoginStep,
} from "../login-step.ts";
import { sessionIdentityOf, type LoginStrategy } from "../login-strategy.ts";
import { matchingTotpStep, totpUrlOf } from "./totp-key.ts";
import { totpLoginCodeNode, totpLoginSubmitNode } from "./totp-nodes.ts";

const totpForm: LoginForm = {
  fields: [
    { name: "csrf_token", type: "string" },
    { name: "method", type: "string" },
    { name: "totp_code", type: "string" },
    { name: "transient_payload", type: "object" },
  ],
  missing: (values) =>
    (stringValue(values.totp_code)?.trim() ?? "") === "" ? [missingValue("totp_code")] : [],
  rerender: (flow) => clearInput(flow, "totp_code"),
};

/** Second-factor form: the code and "Use Authenticator", when the identity has an app linked. */
function populateTotpLogin(flow: Flow, identity: Identity): void {
  if (!totpUrlOf(identity)) return;
  upsertNode(flow.ui, totpLoginCodeNode());
  flow.ui.nodes.push(totpLoginSubmitNode());
}

/**
 * Kratos' totp login: the code of the current 30-second step or one step either side (4000008 in
 * `ui.messages` otherwise). Beyond Kratos, each step is accepted once per identity, so a code seen
 * over someone's shoulder cannot be replayed.
 */
async function totpLogin(step: LoginStep, identity: Identity): Promise<void> {
  const { ctx } = step;
  await runLoginStep(step, totpForm, async (values) => {
    const code = stringValue(values.totp_code)?.trim() ?? "";
    const url = totpUrlOf(identity);
    if (!url) throw ValidationError.of("", uiText(4000011));
    ensureSecondFactorAllowed(ctx, identity.id);
    const now = ctx.now();
    const matched = matchingTotpStep(url, code, now);
    if (matched === undefined || !(await claimTotpStep(ctx.db, identity.id, matched, now))) {
      recordWrongSecondFactor(ctx, identity.id);
      throw ValidationError.of("", uiText(4000008));
    }
    recordSecondFactorPassed(ctx, identity.id);
  });
}

/** The authenticator app as a second factor. */
export const totpLoginStrategy: LoginStrategy = {
  id: "totp",
  group: "totp",
  aal: "aal2",
  configured: (identity) => totpUrlOf(identity) !== undefined,
  responsible: (body) => body.string("method") === "totp",
  populate(_ctx, flow, identity) {
    if (identity) populateTotpLogin(flow, identity);
  },
  async submit(step) {
    const identity = sessionIdentityOf(step);
    await totpLogin(step, identity);
    return { kind: "authenticated", identity };
  },
};
