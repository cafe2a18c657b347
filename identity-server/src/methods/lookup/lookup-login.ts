import type { Flow } from "../../flows/flow.ts";
import { credentialOf, type Identity } from "../../identity/identity.ts";
import {
  ensureSecondFactorAllowed,
  recordSecondFactorPassed,
  recordWrongSecondFactor,
} from "../../rate-limit/rate-limits.ts";
import { findIdentity, updateCredentialConfig } from "../../store/identities.ts";
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
import { findLookupCode, lookupCodesOf } from "./lookup-codes.ts";
import { lookupLoginCodeNode, lookupLoginSubmitNode } from "./lookup-nodes.ts";

const lookupForm: LoginForm = {
  fields: [
    { name: "csrf_token", type: "string" },
    { name: "method", type: "string" },
    { name: "lookup_secret", type: "string" },
    { name: "transient_payload", type: "object" },
  ],
  missing: (values) =>
    (stringValue(values.lookup_secret) ?? "").trim() === "" ? [missingValue("lookup_secret")] : [],
  rerender: (flow) => clearInput(flow, "lookup_secret"),
};

/** Second-factor form: the backup code and "Use backup recovery code", when codes exist. */
function populateLookupLogin(flow: Flow, identity: Identity): void {
  if (lookupCodesOf(identity).length === 0) return;
  upsertNode(flow.ui, lookupLoginCodeNode());
  flow.ui.nodes.push(lookupLoginSubmitNode());
}

/**
 * Kratos' lookup login: the typed code must be one of the identity's backup codes (4000016) and
 * unused (4000012); it is marked used (to the second) in the same transaction that checks it.
 */
async function lookupLogin(step: LoginStep, identity: Identity): Promise<void> {
  const { ctx } = step;
  await runLoginStep(step, lookupForm, async (values) => {
    const typed = stringValue(values.lookup_secret) ?? "";
    ensureSecondFactorAllowed(ctx, identity.id);
    await ctx.db.transaction().execute(async (trx) => {
      const current = await findIdentity(trx, identity.id);
      const credential = current ? credentialOf(current, "lookup_secret") : undefined;
      if (!current || !credential) throw ValidationError.of("", uiText(4000014));
      const codes = lookupCodesOf(current);
      const match = findLookupCode(ctx.secret, codes, typed);
      if (!match || match.used_at) {
        recordWrongSecondFactor(ctx, identity.id);
        throw ValidationError.of("", uiText(match ? 4000012 : 4000016));
      }
      const now = ctx.now();
      const usedAt = new Date(Math.round(now.getTime() / 1000) * 1000).toISOString();
      const updated = codes.map((c) => (c === match ? { ...c, used_at: usedAt } : c));
      await updateCredentialConfig(trx, credential.id, { recovery_codes: updated }, now);
    });
    recordSecondFactorPassed(ctx, identity.id);
  });
}

/** Backup codes as a second factor. */
export const lookupLoginStrategy: LoginStrategy = {
  id: "lookup_secret",
  group: "lookup_secret",
  aal: "aal2",
  configured: (identity) => lookupCodesOf(identity).length > 0,
  responsible: (body) => body.string("method") === "lookup_secret",
  populate(_ctx, flow, identity) {
    if (identity) populateLookupLogin(flow, identity);
  },
  async submit(step) {
    const identity = sessionIdentityOf(step);
    await lookupLogin(step, identity);
    return { kind: "authenticated", identity };
  },
};
