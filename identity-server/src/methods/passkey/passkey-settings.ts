import { randomUUID } from "node:crypto";
import type { ServerContext } from "../../context.ts";
import { badRequest } from "../../http/errors.ts";
import type { Credential, Identity } from "../../identity/identity.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { methodFields } from "../../selfservice/method-fields.ts";
import { addAuthenticationMethod } from "../../session/session-manager.ts";
import type { Executor } from "../../store/schema.ts";
import { saveSession } from "../../store/sessions.ts";
import { uiText } from "../../text/messages.ts";
import { csrfNode, upsertNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import { save, type SettingsOutcome } from "../settings-outcome.ts";
import type { SettingsStep, SettingsStrategy } from "../settings-strategy.ts";
import { handleSettingsSubmission, requirePrivilegedSession } from "../settings-submission.ts";
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
  toWireBase64url,
  webAuthnConfigOf,
  type WebAuthnCredentialRecord,
  type WebAuthnCredentialsConfig,
} from "../webauthn-base/credential-records.ts";
import { alreadyYours, refuseRegisteredCredentialId } from "../webauthn-base/credential-owner.ts";
import { WebAuthnRefused } from "../webauthn-base/webauthn-refused.ts";
import {
  countFirstFactorCredentials,
  newPasskeyUserHandle,
  passkeyDisplayName,
} from "./passkey-credentials.ts";
import {
  passkeyCreateDataNode,
  passkeyRemoveNode,
  passkeySettingsRegisterNode,
  passkeySettingsTriggerNode,
} from "./passkey-nodes.ts";

const key = ceremonyKey("passkey");

const settingsFields = methodFields({
  passkey_settings_register: "string",
  passkey_remove: "string",
});

/** Kratos' webauthnx.ErrNotEnoughCredentials, a message without an id of its own (4000001). */
const lockoutReason =
  "unable to remove this security key because it would lock you out of your account";

/**
 * The identity's passkey user handle (the text its passkey credential is found by), or a new one
 * for its first passkey. Every passkey of an identity shares it, as WebAuthn means a user handle,
 * so the credential's identifiers stay the one handle whatever is added or removed (Kratos makes a
 * new handle per passkey and keeps them all as identifiers, even of removed passkeys).
 */
function userHandleFor(identity: Identity): string {
  const stored = webAuthnConfigOf(passkeyCredential(identity)).user_handle;
  return stored ? Buffer.from(stored, "base64").toString("utf8") : newPasskeyUserHandle();
}

/** New creation options for the identity's user handle, excluding the passkeys already registered. */
async function issueCreateData(ctx: ServerContext, flow: Flow, identity: Identity, name: string) {
  const handle = userHandleFor(identity);
  const options = await createRegistrationOptions(ctx.config.webauthn, {
    userHandle: new TextEncoder().encode(handle),
    userName: name,
    residentKey: "required",
    exclude: webAuthnConfigOf(passkeyCredential(identity)).credentials,
  });
  storeCeremony(flow, key, { challenge: options.challenge, user_handle: options.user.id });
  upsertNode(flow.ui, passkeyCreateDataNode(JSON.stringify({ publicKey: options })));
}

function passkeyCredential(identity: Identity): Credential | undefined {
  return identity.credentials.find((c) => c.type === "passkey");
}

/**
 * Kratos' passkey PopulateSettingsMethod: one remove button per passkey (disabled when it is the
 * last way to sign in), then "Add passkey", the hidden `passkey_settings_register` and the
 * creation options. Without a trait to name the passkey after, only message 4000009 is added.
 */
async function populatePasskeySettings(
  ctx: ServerContext,
  flow: Flow,
  identity: Identity,
  csrfToken: string,
): Promise<void> {
  upsertNode(flow.ui, csrfNode(csrfToken));
  delete flow.internalContext[key];
  const count = countFirstFactorCredentials(ctx, identity);
  for (const record of webAuthnConfigOf(passkeyCredential(identity)).credentials) {
    flow.ui.nodes.push(passkeyRemoveNode(record, count < 2));
  }
  const name = passkeyDisplayName(ctx, identity);
  if (name === "") {
    flow.ui.messages = [...(flow.ui.messages ?? []), uiText(4000009)];
    return;
  }
  const browser = flow.type === "browser";
  upsertNode(flow.ui, passkeySettingsTriggerNode(browser));
  upsertNode(flow.ui, passkeySettingsRegisterNode());
  await issueCreateData(ctx, flow, identity, name);
}

/** Removes one passkey, refusing the identity's last way to sign in. */
function removePasskey(ctx: ServerContext, identity: Identity, hex: string): Identity {
  const credential = passkeyCredential(identity);
  if (!credential) {
    throw badRequest("You tried to remove a WebAuthn but you have no WebAuthn set up.");
  }
  const config = webAuthnConfigOf(credential);
  const record = findRecordByHex(config.credentials, hex);
  if (!record) throw badRequest("You tried to remove a passkey which does not exist.");
  if (countFirstFactorCredentials(ctx, identity) < 2) {
    throw ValidationError.of("", uiText(4000001, { reason: lockoutReason }));
  }
  const remaining = config.credentials.filter((r) => r !== record);
  const others = identity.credentials.filter((c) => c !== credential);
  const now = ctx.now();
  if (remaining.length === 0) return { ...identity, updatedAt: now, credentials: others };
  const updated: Credential = {
    ...credential,
    config: { ...credential.config, credentials: remaining },
    updatedAt: now,
  };
  return { ...identity, updatedAt: now, credentials: [...others, updated] };
}

/**
 * The identity with the verified passkey added to its passkey credential; the credential's
 * identifiers gain the user handle if it is a new one (a first passkey, or a credential from
 * before handles were shared).
 */
function withPasskey(
  identity: Identity,
  record: WebAuthnCredentialRecord,
  handle: Buffer,
  now: Date,
): Identity {
  const credential = passkeyCredential(identity);
  const existing = webAuthnConfigOf(credential);
  // Kratos' ErrCredentialAlreadyRegistered, for clients that ignore excludeCredentials.
  if (findRecord(existing.credentials, toWireBase64url(record.id))) {
    throw alreadyYours("passkey_settings_register");
  }
  const config: WebAuthnCredentialsConfig = {
    credentials: [...existing.credentials, record],
    user_handle: handle.toString("base64"),
  };
  const identifier = handle.toString("utf8");
  const updated: Credential = credential
    ? {
        ...credential,
        identifiers: credential.identifiers.includes(identifier)
          ? credential.identifiers
          : [...credential.identifiers, identifier],
        config: { ...credential.config, ...config },
        updatedAt: now,
      }
    : {
        id: randomUUID(),
        type: "passkey",
        identifiers: [identifier],
        config: { ...config },
        version: 1,
        createdAt: now,
        updatedAt: now,
      };
  return {
    ...identity,
    updatedAt: now,
    credentials: [...identity.credentials.filter((c) => c !== credential), updated],
  };
}

/**
 * Verifies the new passkey against the flow's challenge and refuses a credential id registered
 * already; the change, as a function of the identity, is applied again when it is saved.
 */
async function addPasskey(step: SettingsStep, attestation: string) {
  const { ctx, flow, identity } = step;
  const session = await consumeCeremony(ctx.db, flow, key);
  if (!session.user_handle) throw new WebAuthnRefused("the challenge has no user handle");
  const answer = parseRegistrationResponse(attestation);
  const now = ctx.now();
  const { record } = await verifyRegistration(ctx.config.webauthn, answer, session.challenge, {
    passwordless: true,
    now,
  });
  await refuseRegisteredCredentialId(ctx.db, answer.id, "passkey_settings_register", identity.id);
  const handle = Buffer.from(session.user_handle, "base64url");
  return (current: Identity) => withPasskey(current, record, handle, now);
}

/**
 * Kratos' passkey settings: CSRF, a privileged session, then remove or add. Adding proves the
 * passkey, so the current session gains a `passkey` (aal1) entry, as in Kratos.
 */
async function passkeySettingsUpdate(step: SettingsStep): Promise<SettingsOutcome> {
  const { ctx, flow, session, identity } = step;
  return handleSettingsSubmission(step, settingsFields, async (body) => {
    requirePrivilegedSession(ctx, session);
    const remove = typeof body.passkey_remove === "string" ? body.passkey_remove : "";
    if (remove !== "") {
      const rebase = (current: Identity) => removePasskey(ctx, current, remove);
      return save(rebase(identity), undefined, rebase);
    }
    try {
      const attestation = body.passkey_settings_register;
      const rebase = await addPasskey(step, typeof attestation === "string" ? attestation : "");
      const now = ctx.now();
      const effects = async (db: Executor) => {
        addAuthenticationMethod(session, { method: "passkey", aal: "aal1" }, now);
        await saveSession(db, session, undefined);
      };
      return save(rebase(identity), effects, rebase);
    } catch (error) {
      // The challenge is spent whatever failed: new options, so the form can be used again.
      const name = passkeyDisplayName(ctx, identity);
      if (name !== "") await issueCreateData(ctx, flow, identity, name);
      throw error;
    }
  });
}

const nonEmpty = (value: unknown) => typeof value === "string" && value !== "";

/** The passkeys group of the settings form: add a passkey, remove one. */
export const passkeySettingsStrategy: SettingsStrategy = {
  id: "passkey",
  group: "passkey",
  selectorFields: settingsFields,
  // Kratos: responsible for a `passkey_settings_register` answer or a `passkey_remove` button.
  responsible: (values) =>
    nonEmpty(values.passkey_settings_register) || nonEmpty(values.passkey_remove),
  populate: ({ ctx, flow, identity, csrfToken }) =>
    populatePasskeySettings(ctx, flow, identity, csrfToken),
  update: passkeySettingsUpdate,
};
