import type { ServerContext } from "../../context.ts";
import type { Identity } from "../../identity/identity.ts";
import {
  ensureSecondFactorAllowed,
  recordSecondFactorPassed,
  recordWrongSecondFactor,
} from "../../rate-limit/rate-limits.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { methodFields } from "../../selfservice/method-fields.ts";
import { uiText } from "../../text/messages.ts";
import { removeNodes } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { sessionIdentityOf, type LoginStrategy } from "../login-strategy.ts";
import { runMethodStep, stringValue, type MethodForm } from "../method-step.ts";
import { WebAuthnRefused } from "../webauthn-base/webauthn-refused.ts";
import { offerKeys, verifyKeyAssertion } from "./key-assertion.ts";
import { secondFactorKeysOf } from "./security-keys.ts";

const form: MethodForm = {
  fields: methodFields({ webauthn_login: "string", identifier: "string" }),
  // Kratos resets the assertion input after any error (handleLoginError).
  rerender: (flow) => removeNodes(flow.ui, ["webauthn_login"]),
};

/**
 * The keys' form of a second-factor login (Kratos' PopulateLoginMethodSecondFactor): browser flows
 * only, as in Kratos (native apps run no WebAuthn ceremony through a form), and not when security
 * keys are passwordless (IDENTITY_WEBAUTHN_PASSWORDLESS), where Kratos offers none at aal2.
 */
async function offerSecurityKeys(ctx: ServerContext, flow: Flow, identity: Identity) {
  const keys = secondFactorKeysOf(identity);
  if (flow.type !== "browser" || ctx.config.webauthn.passwordless || keys.length === 0) return;
  await offerKeys(ctx, flow, identity, keys, 1010008);
}

/**
 * Kratos' webauthn strategy as a second factor: "Sign in with a hardware key" when the identity
 * has a security key, `method=webauthn` (or a filled `webauthn_login`), browser flows only. The
 * session gains `webauthn` at aal2. Wrong answers count against the identity's second-factor
 * limit, as wrong TOTP codes do. A refused answer shows the form again with 4000043 and new
 * options, since the old challenge is spent.
 */
export const webauthnLoginStrategy: LoginStrategy = {
  id: "webauthn",
  group: "webauthn",
  aal: "aal2",
  configured: (identity) => secondFactorKeysOf(identity).length > 0,
  responsible: (body) =>
    body.string("method") === "webauthn" || (body.string("webauthn_login") ?? "") !== "",
  populate(ctx, flow, identity) {
    return identity ? offerSecurityKeys(ctx, flow, identity) : undefined;
  },
  async submit(step) {
    const { ctx, flow } = step;
    const identity = sessionIdentityOf(step);
    // Kratos' strategy answers only browser flows, and passwordless keys only at aal1; others find
    // no strategy (4010002).
    if (flow.type !== "browser" || ctx.config.webauthn.passwordless) {
      throw ValidationError.of("", uiText(4010002));
    }
    try {
      await runMethodStep(step, form, async (values) => {
        ensureSecondFactorAllowed(ctx, identity.id);
        try {
          const answer = stringValue(values.webauthn_login) ?? "";
          await verifyKeyAssertion(ctx, flow, identity, secondFactorKeysOf(identity), answer);
        } catch (error) {
          if (error instanceof WebAuthnRefused) recordWrongSecondFactor(ctx, identity.id);
          throw error;
        }
        recordSecondFactorPassed(ctx, identity.id);
      });
    } catch (error) {
      if (error instanceof ValidationError) {
        removeNodes(flow.ui, ["webauthn_login_trigger"]);
        await offerSecurityKeys(ctx, flow, identity);
      }
      throw error;
    }
    return { kind: "authenticated", identity };
  },
};
