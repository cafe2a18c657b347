import {
  ensureSecondFactorAllowed,
  recordSecondFactorPassed,
  recordWrongSecondFactor,
} from "../../rate-limit/rate-limits.ts";
import { claimTotpStep } from "../../store/totp-steps.ts";
import { uiText } from "../../text/messages.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { typedCodeStrategy } from "../typed-code-factor.ts";
import { matchingTotpStep } from "./totp-key.ts";
import { totpUrlOf } from "../../identity/totp-url.ts";
import { totpLoginCodeNode, totpLoginSubmitNode } from "./totp-nodes.ts";

/**
 * The authenticator app as a second factor: the code and "Use Authenticator" when an app is
 * linked. Kratos' totp login accepts the code of the current 30-second step or one step either
 * side (4000008 in `ui.messages` otherwise). Beyond Kratos, each step is accepted once per
 * identity, so a code seen over someone's shoulder cannot be replayed.
 */
export const totpLoginStrategy = typedCodeStrategy({
  id: "totp",
  group: "totp",
  field: "totp_code",
  configured: (identity) => totpUrlOf(identity) !== undefined,
  codeNode: totpLoginCodeNode,
  submitNode: totpLoginSubmitNode,
  async verify({ ctx }, identity, typed) {
    const code = typed.trim();
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
  },
});
