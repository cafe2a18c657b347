import { randomUUID } from "node:crypto";
import type { ServerContext } from "../../context.ts";
import type { FieldSpec } from "../../http/flow-body.ts";
import type { Identity } from "../../identity/identity.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { methodFields } from "../../selfservice/method-fields.ts";
import { setTraitValues, upsertNode } from "../../ui/nodes.ts";
import { messagesFromAjv, type FieldMessage } from "../../ui/validation-error.ts";
import { runMethodStep, stringValue, type MethodStep } from "../method-step.ts";
import { buildIdentity } from "../profile/build-identity.ts";
import { traitFields } from "../profile/trait-fields.ts";
import type { RegistrationStrategy } from "../registration-strategy.ts";
import {
  createRegistrationOptions,
  parseRegistrationResponse,
  verifyRegistration,
} from "../webauthn-base/ceremonies.ts";
import {
  ceremonyKey,
  consumeCeremony,
  storeCeremony,
} from "../webauthn-base/ceremony-challenge.ts";
import type { WebAuthnCredentialsConfig } from "../webauthn-base/credential-records.ts";
import { refuseRegisteredCredentialId } from "../webauthn-base/credential-owner.ts";
import { WebAuthnRefused } from "../webauthn-base/webauthn-refused.ts";
import { newPasskeyUserHandle, passkeyDisplayNameFields } from "./passkey-credentials.ts";
import {
  passkeyCreateDataNode,
  passkeyRegisterNode,
  passkeyRegisterTriggerNode,
} from "./passkey-nodes.ts";

const key = ceremonyKey("passkey");

/**
 * New creation options for a new user handle, kept in the flow. The node carries Kratos'
 * passkeyCreateData: the options under `credentialOptions.publicKey` and the traits the browser
 * names the passkey after (`displayNameFieldName(s)`), since the user types them after the form
 * was made; the options' user name stays empty until then.
 */
async function issueCreateData(ctx: ServerContext, flow: Flow, fields: string[]): Promise<void> {
  const handle = newPasskeyUserHandle();
  const options = await createRegistrationOptions(ctx.config.webauthn, {
    userHandle: new TextEncoder().encode(handle),
    userName: "",
    userDisplayName: "",
    residentKey: "required",
    exclude: [],
  });
  storeCeremony(flow, key, { challenge: options.challenge, user_handle: options.user.id });
  const createData = {
    credentialOptions: { publicKey: options },
    displayNameFieldName: fields[0],
    displayNameFieldNames: fields,
  };
  upsertNode(flow.ui, passkeyCreateDataNode(JSON.stringify(createData)));
}

/**
 * Kratos' PopulateRegistrationMethod (one-step registration): the creation options, "Sign up with
 * passkey" and the hidden `passkey_register`, beside the trait inputs. Without a trait to name the
 * passkey after, the method is left out (Kratos logs a warning and offers the other methods).
 */
async function populatePasskeyRegistration(ctx: ServerContext, flow: Flow): Promise<void> {
  const fields = passkeyDisplayNameFields(ctx);
  if (fields.length === 0) {
    ctx.logger.warn(
      "the identity schema marks no trait as passkey.display_name or webauthn.identifier: passkeys are not offered at registration",
    );
    return;
  }
  await issueCreateData(ctx, flow, fields);
  upsertNode(flow.ui, passkeyRegisterTriggerNode(flow.type === "browser"));
  upsertNode(flow.ui, passkeyRegisterNode());
}

function registrationFields(ctx: ServerContext): readonly FieldSpec[] {
  return methodFields({ passkey_register: "string" }, traitFields(ctx.schema.traitPaths, true));
}

function payloadMessages(ctx: ServerContext, values: Record<string, unknown>): FieldMessage[] {
  const validate = ctx.schema.registrationPayloadValidator;
  return validate(values) ? [] : messagesFromAjv(validate.errors ?? []);
}

/**
 * The traits and the attestation (Kratos' passkey Register): traits validated against the schema,
 * then the flow's challenge taken and the attestation verified; the identity is built only now,
 * with its passkey credential (identifier: the user handle), and stored by the flow.
 */
async function passkeyIdentity(
  step: MethodStep,
  values: Record<string, unknown>,
): Promise<Identity> {
  const { ctx, flow } = step;
  const traits = (values.traits ?? {}) as Record<string, unknown>;
  ctx.schema.validateTraits(traits);
  try {
    const session = await consumeCeremony(ctx.db, flow, key);
    if (!session.user_handle) throw new WebAuthnRefused("the challenge has no user handle");
    const answer = parseRegistrationResponse(stringValue(values.passkey_register) ?? "");
    const now = ctx.now();
    const { record } = await verifyRegistration(ctx.config.webauthn, answer, session.challenge, {
      passwordless: true,
      now,
    });
    await refuseRegisteredCredentialId(ctx.db, answer.id, "passkey_register", undefined);
    const handle = Buffer.from(session.user_handle, "base64url");
    const identity = buildIdentity(ctx, traits, now);
    const config: WebAuthnCredentialsConfig = {
      credentials: [record],
      user_handle: handle.toString("base64"),
    };
    identity.credentials.push({
      id: randomUUID(),
      type: "passkey",
      identifiers: [handle.toString("utf8")],
      config: { ...config },
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    return identity;
  } catch (error) {
    // The challenge is spent whatever failed: new options, so the form can be used again.
    await issueCreateData(ctx, flow, passkeyDisplayNameFields(ctx));
    throw error;
  }
}

/** Sign-up with a passkey instead of a password (Kratos' passkey registration, one step). */
export const passkeyRegistrationStrategy: RegistrationStrategy = {
  id: "passkey",
  group: "passkey",
  // Kratos: responsible once `passkey_register` holds an answer ("true" is what Ory's React SDK
  // sends for an empty value, so it does not count).
  responsible: (body) => {
    const answer = body.string("passkey_register") ?? "";
    return answer !== "" && answer !== "true";
  },
  populate: populatePasskeyRegistration,
  submit: (step) =>
    runMethodStep(
      step,
      {
        fields: registrationFields(step.ctx),
        missing: (values) => payloadMessages(step.ctx, values),
        rerender: (flow, values) => setTraitValues(flow.ui, values?.traits ?? {}),
      },
      (values) => passkeyIdentity(step, values),
    ),
};
