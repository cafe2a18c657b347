import { randomUUID } from "node:crypto";
import type { ServerContext } from "../../context.ts";
import type { Flow } from "../../selfservice/flow.ts";
import type { FieldSpec } from "../../http/flow-body.ts";
import type { Identity } from "../../identity/identity.ts";
import { uiText } from "../../text/messages.ts";
import { setTraitValues, upsertNode } from "../../ui/nodes.ts";
import { messagesFromAjv, ValidationError, type FieldMessage } from "../../ui/validation-error.ts";
import { runMethodStep, stringValue } from "../method-step.ts";
import type { RegistrationStrategy } from "../registration-strategy.ts";
import { hashPassword } from "./hasher.ts";
import { passwordNode, passwordSubmitNode } from "./nodes.ts";
import { passwordPolicyViolation } from "./policy.ts";
import { passwordPolicyOptions } from "./policy-options.ts";
import { buildIdentity } from "../profile/build-identity.ts";
import { traitFields } from "../profile/trait-fields.ts";
import { methodFields } from "../../selfservice/method-fields.ts";

/** One-step registration's password part: the new-password input and the "Sign up" submit. */
function populatePasswordRegistration(flow: Flow): void {
  upsertNode(flow.ui, passwordNode("new-password"));
  upsertNode(flow.ui, passwordSubmitNode(1040001));
}

function registrationFields(ctx: ServerContext): readonly FieldSpec[] {
  return methodFields({ password: "string" }, traitFields(ctx.schema.traitPaths, true));
}

/** The payload schema's checks, before the CSRF token (Kratos validates while decoding). */
function payloadMessages(ctx: ServerContext, values: Record<string, unknown>): FieldMessage[] {
  const validate = ctx.schema.registrationPayloadValidator;
  return validate(values) ? [] : messagesFromAjv(validate.errors ?? []);
}

/**
 * The identifiers and the password policy; returns the new (not yet stored) identity with its
 * argon2id credential.
 */
async function passwordIdentity(
  ctx: ServerContext,
  values: Record<string, unknown>,
): Promise<Identity> {
  const traits = values.traits ?? {};
  const password = stringValue(values.password) ?? "";
  if (password === "")
    throw ValidationError.of("password", uiText(4000002, { property: "password" }));

  ctx.schema.validateTraits(traits);
  const derived = ctx.schema.derive(traits);
  if (derived.passwordIdentifiers.length === 0) throw ValidationError.of("", uiText(4000009));
  const options = passwordPolicyOptions(ctx);
  for (const identifier of derived.passwordIdentifiers) {
    const violation = passwordPolicyViolation(password, identifier, options);
    if (violation) throw ValidationError.of("password", violation);
  }

  const now = ctx.now();
  const identity = buildIdentity(ctx, traits as Record<string, unknown>, now);
  identity.credentials.push({
    id: randomUUID(),
    type: "password",
    identifiers: derived.passwordIdentifiers,
    config: { hashed_password: await hashPassword(password) },
    version: 0,
    createdAt: now,
    updatedAt: now,
  });
  return identity;
}

/**
 * One-step registration with a password (`method=password`): the payload is validated (traits
 * against the identity schema), then the CSRF token, the identifiers and the password policy. On
 * failure the form keeps the submitted traits (runMethodStep adds a fresh CSRF token).
 */
export const passwordRegistrationStrategy: RegistrationStrategy = {
  id: "password",
  group: "password",
  responsible: (body) => body.string("method") === "password",
  populate: (_ctx, flow) => populatePasswordRegistration(flow),
  submit: (step) =>
    runMethodStep(
      step,
      {
        fields: registrationFields(step.ctx),
        missing: (values) => payloadMessages(step.ctx, values),
        rerender: (flow, values) => setTraitValues(flow.ui, values?.traits ?? {}),
      },
      (values) => passwordIdentity(step.ctx, values),
    ),
};
