import type { ServerContext } from "../../context.ts";
import type { Identity } from "../../identity/identity.ts";
import {
  ensureSecondFactorAllowed,
  recordSecondFactorPassed,
  recordWrongSecondFactor,
} from "../../rate-limit/rate-limits.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { methodFields } from "../../selfservice/method-fields.ts";
import { findIdentity, updateCredentialConfig } from "../../store/identities.ts";
import { uiText } from "../../text/messages.ts";
import { removeNodes, upsertNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { sessionIdentityOf, type LoginStep, type LoginStrategy } from "../login-strategy.ts";
import { runMethodStep, stringValue, type MethodForm } from "../method-step.ts";
import {
  createAuthenticationOptions,
  parseAuthenticationResponse,
  verifyAuthentication,
} from "../webauthn-base/ceremonies.ts";
import {
  ceremonyKey,
  consumeCeremony,
  storeCeremony,
} from "../webauthn-base/ceremony-challenge.ts";
import {
  findRecord,
  webAuthnConfigOf,
  type WebAuthnCredentialRecord,
} from "../webauthn-base/credential-records.ts";
import { WebAuthnRefused } from "../webauthn-base/webauthn-refused.ts";
import { secondFactorKeysOf, webauthnCredentialOf } from "./security-keys.ts";
import {
  webauthnIdentifierNode,
  webauthnLoginInputNode,
  webauthnLoginTriggerNode,
} from "./webauthn-nodes.ts";

const key = ceremonyKey("webauthn");

const form: MethodForm = {
  fields: methodFields({ webauthn_login: "string", identifier: "string" }),
  // Kratos resets the assertion input after any error (handleLoginError).
  rerender: (flow) => removeNodes(flow.ui, ["webauthn_login"]),
};

/**
 * The key's form for a second-factor login (Kratos' populateLoginMethod at aal2): request options
 * allowing only this identity's security keys, their challenge kept in the flow's internal
 * context, the trigger, the hidden answer input and the credential's identifier. Browser flows
 * only, as in Kratos: native apps run no WebAuthn ceremony through a form.
 */
async function offerSecurityKeys(ctx: ServerContext, flow: Flow, identity: Identity) {
  const keys = secondFactorKeysOf(identity);
  if (flow.type !== "browser" || keys.length === 0) return;
  const options = await createAuthenticationOptions(ctx.config.webauthn, keys);
  storeCeremony(flow, key, { challenge: options.challenge });
  const identifier = webauthnCredentialOf(identity)?.identifiers[0];
  if (identifier) upsertNode(flow.ui, webauthnIdentifierNode(identifier));
  upsertNode(flow.ui, webauthnLoginTriggerNode(options));
  upsertNode(flow.ui, webauthnLoginInputNode());
}

/** Stores the key's new counter (and backup state) in the same row the key was read from. */
async function saveUsedKey(ctx: ServerContext, identityId: string, used: WebAuthnCredentialRecord) {
  await ctx.db.transaction().execute(async (trx) => {
    const current = await findIdentity(trx, identityId);
    const credential = current ? webauthnCredentialOf(current) : undefined;
    if (!credential) return;
    const config = webAuthnConfigOf(credential);
    const credentials = config.credentials.map((record) => (record.id === used.id ? used : record));
    await updateCredentialConfig(
      trx,
      credential.id,
      { ...credential.config, credentials },
      ctx.now(),
    );
  });
}

/**
 * Checks the assertion: the flow's challenge is taken first (single use, whatever follows), the
 * key must be one of this identity's security keys, and signature, origin, RP id and counter must
 * verify. Failures count against the identity's second-factor limit, as wrong TOTP codes do.
 */
async function verifyAssertion(
  step: LoginStep,
  identity: Identity,
  values: Record<string, unknown>,
) {
  const { ctx, flow } = step;
  ensureSecondFactorAllowed(ctx, identity.id);
  try {
    const ceremony = await consumeCeremony(ctx.db, flow, key);
    const response = parseAuthenticationResponse(stringValue(values.webauthn_login) ?? "");
    const stored = findRecord(secondFactorKeysOf(identity), response.id);
    if (!stored) throw new WebAuthnRefused("the key is not one of this identity's security keys");
    const used = await verifyAuthentication(
      ctx.config.webauthn,
      response,
      ceremony.challenge,
      stored,
    );
    await saveUsedKey(ctx, identity.id, used);
  } catch (error) {
    if (error instanceof WebAuthnRefused) recordWrongSecondFactor(ctx, identity.id);
    throw error;
  }
  recordSecondFactorPassed(ctx, identity.id);
}

/**
 * Kratos' webauthn strategy as a second factor: "Sign in with a hardware key" when the identity
 * has a security key, `method=webauthn` (or a filled `webauthn_login`), browser flows only. The
 * session gains `webauthn` at aal2. A refused answer shows the form again with 4000043 and new
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
    const identity = sessionIdentityOf(step);
    // Kratos' strategy answers only browser flows; others find no strategy (4010002).
    if (step.flow.type !== "browser") throw ValidationError.of("", uiText(4010002));
    try {
      await runMethodStep(step, form, (values) => verifyAssertion(step, identity, values));
    } catch (error) {
      if (error instanceof ValidationError) {
        removeNodes(step.flow.ui, ["webauthn_login_trigger"]);
        await offerSecurityKeys(step.ctx, step.flow, identity);
      }
      throw error;
    }
    return { kind: "authenticated", identity };
  },
};
