import type { ServerContext } from "../../context.ts";
import { csrfTokenFor } from "../../http/csrf.ts";
import type { Identity } from "../../identity/identity.ts";
import { normalizeEmail } from "../../identity/normalize.ts";
import {
  ensureSecondFactorAllowed,
  recordSecondFactorPassed,
  recordWrongSecondFactor,
} from "../../rate-limit/rate-limits.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { methodFields } from "../../selfservice/method-fields.ts";
import { updateFlow } from "../../store/flows.ts";
import { findIdentityByIdentifier } from "../../store/identities.ts";
import { uiText } from "../../text/messages.ts";
import { csrfNode, findInput, inputNode, removeNodes, upsertNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import type { LoginStrategy } from "../login-strategy.ts";
import { missingValue, runMethodStep, stringValue, type MethodForm } from "../method-step.ts";
import { webAuthnRecordsOf } from "../webauthn-base/credential-records.ts";
import { WebAuthnRefused } from "../webauthn-base/webauthn-refused.ts";
import { offerKeys, verifyKeyAssertion } from "./key-assertion.ts";

// Kratos' webauthn strategy with `passwordless: true` (IDENTITY_WEBAUTHN_PASSWORDLESS): a security
// key as a first factor. Two steps, as Kratos: the identifier, then the key's answer.

/** The identity's passwordless keys (Kratos' ToWebAuthnFiltered at aal1). */
function passwordlessKeysOf(identity: Identity) {
  return webAuthnRecordsOf(identity, "webauthn").filter((record) => record.is_passwordless);
}

const form: MethodForm = {
  fields: methodFields({ webauthn_login: "string", identifier: "string" }),
  // Kratos' login schema requires the identifier whenever the method is webauthn.
  missing: (values) =>
    (stringValue(values.identifier) ?? "").trim() === "" ? [missingValue("identifier")] : [],
  rerender: (flow) => removeNodes(flow.ui, ["webauthn_login"]),
};

/**
 * Kratos' PopulateLoginMethodFirstFactor: the identifier with `autocomplete="username webauthn"`
 * and "Sign in with a hardware key" (`method=webauthn`); a refresh (aal1) offers the session
 * identity's passwordless keys at once. Browser flows only, and only when configured.
 */
async function populatePasswordless(
  ctx: ServerContext,
  flow: Flow,
  identity: Identity | undefined,
) {
  if (flow.type !== "browser" || !ctx.config.webauthn.passwordless) return;
  if (identity) {
    const keys = passwordlessKeysOf(identity);
    if (keys.length > 0) await offerKeys(ctx, flow, identity, keys, 1010008);
    return;
  }
  const title = ctx.schema.identifierTitle;
  upsertNode(
    flow.ui,
    inputNode({
      name: "identifier",
      type: "text",
      group: "default",
      value: "",
      required: true,
      autocomplete: "username webauthn",
      label: title ? uiText(1070002, { title: title.title, name: title.name }) : uiText(1070004),
    }),
  );
  flow.ui.nodes.push(
    inputNode({
      name: "method",
      type: "submit",
      group: "webauthn",
      value: "webauthn",
      label: uiText(1010008),
    }),
  );
}

/**
 * Kratos' loginPasswordless: the identifier names the identity (4000015 when it has no
 * passwordless key, the same answer as for no identity); without an answer yet, the form is
 * replaced by that identity's keys ("Continue" 1010011, message 1010012) and shown again; with
 * one, the answer must verify for one of those keys. Wrong answers count against the identity's
 * limit for factors other than passwords.
 */
export const webauthnPasswordlessLoginStrategy: LoginStrategy = {
  id: "webauthn",
  group: "webauthn",
  aal: "aal1",
  configured: (identity) =>
    passwordlessKeysOf(identity).length > 0 &&
    identity.credentials.some((c) => c.type === "webauthn" && c.identifiers.length > 0),
  responsible: (body) =>
    body.string("method") === "webauthn" || (body.string("webauthn_login") ?? "") !== "",
  populate: populatePasswordless,
  async submit(step) {
    const { ctx, flow, request, reply } = step;
    if (flow.type !== "browser" || !ctx.config.webauthn.passwordless) {
      throw ValidationError.of("", uiText(4010002));
    }
    let identity: Identity | undefined;
    try {
      return await runMethodStep(step, form, async (values) => {
        const identifier = normalizeEmail((stringValue(values.identifier) ?? "").trim());
        identity = (await findIdentityByIdentifier(ctx.db, "webauthn", identifier))?.identity;
        const keys = identity ? passwordlessKeysOf(identity) : [];
        if (!identity || keys.length === 0) throw ValidationError.of("", uiText(4000015));
        const answer = stringValue(values.webauthn_login);
        if (!answer) {
          flow.ui.nodes = [csrfNode(csrfTokenFor(request, reply, ctx.cookies))];
          await offerKeys(ctx, flow, identity, keys, 1010011);
          flow.ui.messages = [uiText(1010012)];
          await updateFlow(ctx.db, flow, ctx.now());
          return { kind: "continue" as const };
        }
        ensureSecondFactorAllowed(ctx, identity.id);
        try {
          await verifyKeyAssertion(ctx, flow, identity, keys, answer);
        } catch (error) {
          if (error instanceof WebAuthnRefused) recordWrongSecondFactor(ctx, identity.id);
          throw error;
        }
        recordSecondFactorPassed(ctx, identity.id);
        return { kind: "authenticated" as const, identity };
      });
    } catch (error) {
      // After a refused answer the identity's keys are offered again with a new challenge.
      if (
        error instanceof ValidationError &&
        identity &&
        findInput(flow.ui, "webauthn_login_trigger")
      ) {
        removeNodes(flow.ui, ["webauthn_login_trigger"]);
        await offerKeys(ctx, flow, identity, passwordlessKeysOf(identity), 1010011);
      }
      throw error;
    }
  },
};
