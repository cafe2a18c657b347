import { randomUUID } from "node:crypto";
import type { ServerContext } from "../../context.ts";
import { badRequest } from "../../http/errors.ts";
import type { Identity } from "../../identity/identity.ts";
import { availableAal } from "../../identity/second-factors.ts";
import { addAuthenticationMethod } from "../../session/session-manager.ts";
import type { Executor } from "../../store/schema.ts";
import { saveSession } from "../../store/sessions.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { methodFields } from "../../selfservice/method-fields.ts";
import { uiText } from "../../text/messages.ts";
import { csrfNode, removeNodes, upsertNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { save, saveWithoutSecondFactor, type SettingsOutcome } from "../settings-outcome.ts";
import type { SettingsStep, SettingsStrategy } from "../settings-strategy.ts";
import {
  handleSettingsSubmission,
  recordSecondFactorProof,
  requirePrivilegedSession,
} from "../settings-submission.ts";
import { stringValue } from "../method-step.ts";
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
import {
  findRecord,
  findRecordByHex,
  webAuthnConfigOf,
  webAuthnRecordsOf,
  type WebAuthnCredentialRecord,
} from "../webauthn-base/credential-records.ts";
import { alreadyYours, refuseRegisteredCredentialId } from "../webauthn-base/credential-owner.ts";
import { webauthnCredentialOf, webauthnIdentifiersOf } from "./security-keys.ts";
import {
  webauthnDisplayNameNode,
  webauthnRegisterInputNode,
  webauthnRegisterTriggerNode,
  webauthnRemoveNode,
} from "./webauthn-nodes.ts";

const key = ceremonyKey("webauthn");

const webauthnSettingsFields = methodFields({
  webauthn_register: "string",
  webauthn_register_displayname: "string",
  webauthn_remove: "string",
});

/** Kratos' webauthn user handle: the identity id's 16 bytes. */
function userHandleOf(identity: Identity): Buffer {
  return Buffer.from(identity.id.replace(/-/g, ""), "hex");
}

/**
 * The "add a key" part of the form: creation options (every registered key excluded, so one
 * authenticator is not registered twice) whose challenge waits in the flow's internal context,
 * the name input, the trigger and the hidden answer input.
 */
async function offerRegistration(ctx: ServerContext, flow: Flow, identity: Identity) {
  const options = await createRegistrationOptions(ctx.config.webauthn, {
    userHandle: new Uint8Array(userHandleOf(identity)),
    // go-webauthn names the user after the relying party when Kratos gives no name.
    userName: ctx.config.webauthn.rpDisplayName,
    residentKey: "discouraged",
    exclude: webAuthnRecordsOf(identity, "webauthn"),
  });
  storeCeremony(flow, key, { challenge: options.challenge, user_handle: options.user.id });
  upsertNode(flow.ui, webauthnDisplayNameNode());
  upsertNode(flow.ui, webauthnRegisterInputNode());
  upsertNode(flow.ui, webauthnRegisterTriggerNode(options));
}

/** The webauthn group (browser flows only, as Kratos): one remove button per key, then "add". */
async function populateWebauthnSettings(
  ctx: ServerContext,
  flow: Flow,
  identity: Identity,
  csrfToken: string,
): Promise<void> {
  if (flow.type !== "browser") return;
  upsertNode(flow.ui, csrfNode(csrfToken));
  const records = webAuthnRecordsOf(identity, "webauthn");
  for (const record of records) {
    const node = webauthnRemoveNode(record);
    // Kratos disables the button of a passwordless key the identity could not sign in without.
    const rest = records.filter((other) => other !== record);
    const identifiers = webauthnCredentialOf(identity)?.identifiers ?? [];
    node.attributes.disabled =
      record.is_passwordless &&
      availableAal(withKeys(identity, rest, identifiers, ctx.now()), ctx.config.secondFactor) ===
        "aal0";
    flow.ui.nodes.push(node);
  }
  await offerRegistration(ctx, flow, identity);
}

/**
 * Kratos' settings schema: a registration needs a name. An empty value is no value (the decoder
 * drops it), so both are 4000002.
 */
function checkDisplayName(value: unknown): string {
  const name = stringValue(value);
  if (name === undefined) {
    const property = "webauthn_register_displayname";
    throw ValidationError.of(property, uiText(4000002, { property }));
  }
  return name;
}

function withKeys(
  identity: Identity,
  records: WebAuthnCredentialRecord[],
  identifiers: string[],
  now: Date,
): Identity {
  const others = identity.credentials.filter((c) => c.type !== "webauthn");
  if (records.length === 0) return { ...identity, updatedAt: now, credentials: others };
  const existing = webauthnCredentialOf(identity);
  return {
    ...identity,
    updatedAt: now,
    credentials: [
      ...others,
      {
        id: existing?.id ?? randomUUID(),
        type: "webauthn",
        identifiers,
        config: { credentials: records, user_handle: userHandleOf(identity).toString("base64") },
        version: 1,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      },
    ],
  };
}

/**
 * Adds the key the browser created: the flow's challenge is taken (single use), the answer must
 * verify for the configured origins and RP id, and a key registered already is refused as Kratos
 * refuses it. The key proves itself, so the session gains `webauthn` at aal2, as Kratos adds it.
 */
async function addKey(step: SettingsStep, answer: string, displayName: string) {
  const { ctx, flow, session, identity } = step;
  const now = ctx.now();
  const ceremony = await consumeCeremony(ctx.db, flow, key);
  const response = parseRegistrationResponse(answer);
  const passwordless = ctx.config.webauthn.passwordless;
  const { record } = await verifyRegistration(ctx.config.webauthn, response, ceremony.challenge, {
    passwordless,
    now,
  });
  await refuseRegisteredCredentialId(ctx.db, response.id, "webauthn_register", identity.id);
  // The key added to the identity as it is when saved (a sign-in may have moved a counter since).
  const rebase = (current: Identity) => {
    const records = webAuthnRecordsOf(current, "webauthn");
    if (findRecord(records, response.id)) throw alreadyYours("webauthn_register");
    const identifiers = webauthnIdentifiersOf(ctx.schema, current);
    // Kratos' validateCredentials: a webauthn credential needs an identifier from the schema.
    if (identifiers.length === 0) throw ValidationError.of("", uiText(4000009));
    return withKeys(
      current,
      [...records, { ...record, display_name: displayName }],
      identifiers,
      now,
    );
  };
  const effects = async (db: Executor) => {
    if (!passwordless) return recordSecondFactorProof(db, session, "webauthn", now);
    // A passwordless key is a first factor: Kratos records it at aal1.
    addAuthenticationMethod(session, { method: "webauthn", aal: "aal1" }, now);
    await saveSession(db, session, undefined);
  };
  return save(rebase(identity), effects, rebase);
}

/**
 * Removes one key, named by its id in hex. A key the identity signs in with alone (a passwordless
 * one, when nothing else is left) stays, with Kratos' message; the last key takes the credential
 * with it. Losing a second factor forgets the identity's trusted devices, as unlinking TOTP does.
 */
function withoutKey(ctx: ServerContext, identity: Identity, hexId: string): Identity {
  const credential = webauthnCredentialOf(identity);
  if (!credential) {
    throw badRequest("You tried to remove a WebAuthn but you have no WebAuthn set up.");
  }
  const records = webAuthnConfigOf(credential).credentials;
  const target = findRecordByHex(records, hexId);
  if (!target) throw badRequest("You tried to remove a WebAuthn credential which does not exist.");
  const updated = withKeys(
    identity,
    records.filter((record) => record !== target),
    credential.identifiers,
    ctx.now(),
  );
  if (target.is_passwordless && availableAal(updated, ctx.config.secondFactor) === "aal0") {
    throw ValidationError.of(
      "webauthn_remove",
      uiText(4000001, {
        reason: "unable to remove this security key because it would lock you out of your account",
      }),
    );
  }
  return updated;
}

/** The removal, applied again to the identity as stored when it is saved. */
function removeKey(ctx: ServerContext, identity: Identity, hexId: string): SettingsOutcome {
  const rebase = (current: Identity) => withoutKey(ctx, current, hexId);
  return saveWithoutSecondFactor(rebase(identity), rebase);
}

/**
 * Kratos' webauthn settings strategy: recognised by a filled `webauthn_register` or
 * `webauthn_remove` (browser flows only), then CSRF, the name a new key needs, a privileged
 * session, and the change. Any refusal shows the form again with new creation options, since the
 * challenge of the old ones may be spent.
 */
async function webauthnSettingsUpdate(step: SettingsStep): Promise<SettingsOutcome> {
  const { ctx, flow, session, identity } = step;
  if (flow.type !== "browser") throw ValidationError.of("", uiText(4010004));
  try {
    return await handleSettingsSubmission(step, webauthnSettingsFields, async (body) => {
      const register = stringValue(body.webauthn_register) ?? "";
      const displayName = register ? checkDisplayName(body.webauthn_register_displayname) : "";
      requirePrivilegedSession(ctx, session);
      if (register) return addKey(step, register, displayName);
      return removeKey(ctx, identity, stringValue(body.webauthn_remove) ?? "");
    });
  } catch (error) {
    if (error instanceof ValidationError) {
      removeNodes(flow.ui, ["webauthn_register_trigger"]);
      await offerRegistration(ctx, flow, identity);
    }
    throw error;
  }
}

/** The security keys group of the settings form. */
export const webauthnSettingsStrategy: SettingsStrategy = {
  id: "webauthn",
  group: "webauthn",
  selectorFields: webauthnSettingsFields,
  responsible: (values) =>
    (stringValue(values.webauthn_register) ?? "") !== "" ||
    (stringValue(values.webauthn_remove) ?? "") !== "",
  populate: ({ ctx, flow, identity, csrfToken }) =>
    populateWebauthnSettings(ctx, flow, identity, csrfToken),
  update: webauthnSettingsUpdate,
};
