import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { uiText, type UiText } from "../../text/messages.ts";
import { inputNode, type InputNode } from "../../ui/nodes.ts";
import { recordHexId, type WebAuthnCredentialRecord } from "../webauthn-base/credential-records.ts";

// The webauthn nodes, as Kratos' x/webauthnx/nodes.go builds them. The options travel the way
// go-webauthn marshals them, wrapped as `{"publicKey": {...}}`; the deprecated `onclick` calls the
// trigger with them (for Ory's own UIs), `onclickTrigger` names it for UIs that never evaluate
// node strings (ours).

/** `{"publicKey": options}`, as go-webauthn's CredentialAssertion / CredentialCreation encode. */
function wrapped(
  options: PublicKeyCredentialRequestOptionsJSON | PublicKeyCredentialCreationOptionsJSON,
): string {
  return JSON.stringify({ publicKey: options });
}

/**
 * Login: the trigger carrying the request options, labelled "Sign in with a hardware key" (1010008;
 * 1010011 for the passwordless step after the identifier).
 */
export function webauthnLoginTriggerNode(
  options: PublicKeyCredentialRequestOptionsJSON,
  label: UiText = uiText(1010008),
): InputNode {
  const value = wrapped(options);
  return inputNode({
    name: "webauthn_login_trigger",
    type: "button",
    group: "webauthn",
    value,
    onclick: `window.oryWebAuthnLogin(${value})`,
    onclickTrigger: "oryWebAuthnLogin",
    label,
  });
}

/** Second-factor login: the hidden input the browser fills with the assertion JSON. */
export function webauthnLoginInputNode(): InputNode {
  return inputNode({ name: "webauthn_login", type: "hidden", group: "webauthn", value: "" });
}

/** Second-factor login: the credential's identifier as a hidden `identifier` (Kratos adds it). */
export function webauthnIdentifierNode(identifier: string): InputNode {
  return inputNode({ name: "identifier", type: "hidden", group: "default", value: identifier });
}

/** Settings: the new key's name ("Name of the security key", 1050013). */
export function webauthnDisplayNameNode(): InputNode {
  return inputNode({
    name: "webauthn_register_displayname",
    type: "text",
    group: "webauthn",
    value: "",
    label: uiText(1050013),
  });
}

/** Settings: "Add security key" (1050012), carrying the creation options. */
export function webauthnRegisterTriggerNode(
  options: PublicKeyCredentialCreationOptionsJSON,
): InputNode {
  const value = wrapped(options);
  return inputNode({
    name: "webauthn_register_trigger",
    type: "button",
    group: "webauthn",
    value,
    onclick: `window.oryWebAuthnRegistration(${value})`,
    onclickTrigger: "oryWebAuthnRegistration",
    label: uiText(1050012),
  });
}

/** Settings: the hidden input the browser fills with the attestation JSON. */
export function webauthnRegisterInputNode(): InputNode {
  return inputNode({ name: "webauthn_register", type: "hidden", group: "webauthn", value: "" });
}

/** RFC 3339 without fractional seconds, as Go encodes time.Time. */
function rfc3339(at: Date): string {
  return at.toISOString().replace(".000Z", "Z");
}

/**
 * Settings: one "Remove security key "{display_name}"" (1050018) per key, its value the key's id
 * in hex; the context carries the name ("unnamed" without one) and when it was added.
 */
export function webauthnRemoveNode(record: WebAuthnCredentialRecord): InputNode {
  const addedAt = new Date(record.added_at);
  const valid = !Number.isNaN(addedAt.getTime());
  const displayName = record.display_name || "unnamed";
  return inputNode({
    name: "webauthn_remove",
    type: "submit",
    group: "webauthn",
    value: recordHexId(record),
    label: uiText(
      1050018,
      { display_name: displayName },
      {
        added_at: valid ? rfc3339(addedAt) : record.added_at,
        added_at_unix: valid ? Math.floor(addedAt.getTime() / 1000) : 0,
        display_name: displayName,
      },
    ),
  });
}
