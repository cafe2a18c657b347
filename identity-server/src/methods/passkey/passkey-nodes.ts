import { uiText } from "../../text/messages.ts";
import type { InputNode } from "../../ui/node-types.ts";
import { inputNode } from "../../ui/nodes.ts";
import type { WebAuthnCredentialRecord } from "../webauthn-base/credential-records.ts";
import { recordHexId } from "../webauthn-base/credential-records.ts";

// The passkey nodes, as Kratos' strategy/passkey (nodes.go, passkey_login.go, passkey_settings.go)
// builds them. `onclick`/`onload` (scripts for Ory's webauthn.js) only go to browser flows; the
// `*Trigger` names go to every flow, so apps and our portal key off them without evaluating code.

/** Login: the request options as JSON (`{"publicKey": …}`, go-webauthn's CredentialAssertion). */
export function passkeyChallengeNode(optionsJson: string): InputNode {
  return inputNode({
    name: "passkey_challenge",
    type: "hidden",
    group: "passkey",
    value: optionsJson,
  });
}

/** Login: the assertion the browser fills in; on load it starts passkey autofill. */
export function passkeyLoginNode(browser: boolean, autofill: boolean): InputNode {
  return inputNode({
    name: "passkey_login",
    type: "hidden",
    group: "passkey",
    ...(autofill && browser ? { onload: "window.oryPasskeyLoginAutocompleteInit()" } : {}),
    ...(autofill ? { onloadTrigger: "oryPasskeyLoginAutocompleteInit" } : {}),
  });
}

/** Login: "Sign in with passkey" (1010021). */
export function passkeyLoginTriggerNode(browser: boolean): InputNode {
  return inputNode({
    name: "passkey_login_trigger",
    type: "button",
    group: "passkey",
    value: "",
    ...(browser ? { onclick: "window.oryPasskeyLogin()" } : {}),
    onclickTrigger: "oryPasskeyLogin",
    label: uiText(1010021),
  });
}

/** Registration and settings: the creation options the browser passes to create(). */
export function passkeyCreateDataNode(json: string): InputNode {
  return inputNode({ name: "passkey_create_data", type: "hidden", group: "passkey", value: json });
}

/** Registration: "Sign up with passkey" (1040007). */
export function passkeyRegisterTriggerNode(browser: boolean): InputNode {
  return inputNode({
    name: "passkey_register_trigger",
    type: "button",
    group: "passkey",
    ...(browser ? { onclick: "window.oryPasskeyRegistration()" } : {}),
    onclickTrigger: "oryPasskeyRegistration",
    label: uiText(1040007),
  });
}

/** Registration: the attestation the browser fills in. */
export function passkeyRegisterNode(): InputNode {
  return inputNode({ name: "passkey_register", type: "hidden", group: "passkey" });
}

/** Settings: "Add passkey" (1050019). */
export function passkeySettingsTriggerNode(browser: boolean): InputNode {
  return inputNode({
    name: "passkey_register_trigger",
    type: "button",
    group: "passkey",
    value: "",
    ...(browser ? { onclick: "window.oryPasskeySettingsRegistration()" } : {}),
    onclickTrigger: "oryPasskeySettingsRegistration",
    label: uiText(1050019),
  });
}

/** Settings: the attestation of a passkey being added. */
export function passkeySettingsRegisterNode(): InputNode {
  return inputNode({ name: "passkey_settings_register", type: "hidden", group: "passkey" });
}

/**
 * Settings: `Remove passkey "<name>"` (1050020) per passkey, the id in hex as Kratos writes it;
 * disabled when it is the identity's last way to sign in.
 */
export function passkeyRemoveNode(record: WebAuthnCredentialRecord, disabled: boolean): InputNode {
  const addedAt = new Date(record.added_at);
  const node = inputNode({
    name: "passkey_remove",
    type: "submit",
    group: "passkey",
    value: recordHexId(record),
    label: uiText(
      1050020,
      { display_name: record.display_name || "unnamed" },
      {
        added_at: record.added_at,
        added_at_unix: Math.floor(addedAt.getTime() / 1000),
        display_name: record.display_name || "unnamed",
      },
    ),
  });
  node.attributes.disabled = disabled;
  return node;
}
