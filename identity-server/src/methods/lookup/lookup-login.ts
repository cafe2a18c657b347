import { credentialOf } from "../../identity/identity.ts";
import {
  ensureSecondFactorAllowed,
  recordSecondFactorPassed,
  recordWrongSecondFactor,
} from "../../rate-limit/rate-limits.ts";
import { findIdentity, updateCredentialConfig } from "../../store/identities.ts";
import { uiText } from "../../text/messages.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { typedCodeStrategy } from "../typed-code-factor.ts";
import { findLookupCode, lookupCodesOf } from "./lookup-codes.ts";
import { lookupLoginCodeNode, lookupLoginSubmitNode } from "./lookup-nodes.ts";

/**
 * Backup codes as a second factor: the code and "Use backup recovery code" while codes exist.
 * Kratos' lookup login: the typed code must be one of the identity's backup codes (4000016) and
 * unused (4000012); it is marked used (to the second) in the same transaction that checks it.
 */
export const lookupLoginStrategy = typedCodeStrategy({
  id: "lookup_secret",
  group: "lookup_secret",
  field: "lookup_secret",
  configured: (identity) => lookupCodesOf(identity).length > 0,
  codeNode: lookupLoginCodeNode,
  submitNode: lookupLoginSubmitNode,
  async verify({ ctx }, identity, typed) {
    ensureSecondFactorAllowed(ctx, identity.id);
    await ctx.db.transaction().execute(async (trx) => {
      const current = await findIdentity(trx, identity.id);
      const credential = current ? credentialOf(current, "lookup_secret") : undefined;
      if (!current || !credential) throw ValidationError.of("", uiText(4000014));
      const codes = lookupCodesOf(current);
      const match = findLookupCode(ctx.secrets, codes, typed);
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
  },
});
