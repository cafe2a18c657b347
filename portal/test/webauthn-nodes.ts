import { UiNodeFromJSON } from "@portal/client";
import type { UiNode } from "@portal/client";

/**
 * Passkey and security-key nodes in Kratos' shapes (selfservice/strategy/passkey and webauthn,
 * ui/node), for the states the recorded flows in vendor/ory do not show: a passkey sign-in form,
 * a passkey sign-up step, options with real values, credentials to remove. Built here from the
 * shapes, not copied.
 */
type Attributes = Record<string, unknown>;

function node(group: string, attributes: Attributes, label?: Attributes): UiNode {
  return UiNodeFromJSON({
    type: "input",
    group,
    attributes: { node_type: "input", disabled: false, ...attributes },
    messages: [],
    meta: label ? { label } : {},
  });
}

const csrf = node("default", { name: "csrf_token", type: "hidden", required: true, value: "t0k" });

/** base64url of "challenge-0123456789abcdef", as go-webauthn writes challenges. */
export const challenge = "Y2hhbGxlbmdlLTAxMjM0NTY3ODlhYmNkZWY";

/** Request options as Kratos sends them: wrapped in `publicKey`. */
const requestOptions = {
  publicKey: { challenge, timeout: 60000, rpId: "localhost", userVerification: "preferred" },
};

function creationOptions(userName: string) {
  return {
    challenge,
    rp: { name: "Portal", id: "localhost" },
    user: { id: "dXNlci1pZA", name: userName, displayName: userName },
    pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    timeout: 60000,
    attestation: "none",
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  };
}

/** Sign-in page, first factor: the password form plus Kratos' passkey nodes. */
export function passkeyLoginNodes(options: unknown = requestOptions): UiNode[] {
  return [
    csrf,
    node(
      "default",
      {
        name: "identifier",
        type: "text",
        value: "",
        required: true,
        autocomplete: "username webauthn",
      },
      { id: 1070004, text: "ID", type: "info" },
    ),
    node(
      "password",
      { name: "password", type: "password", required: true, autocomplete: "current-password" },
      { id: 1070001, text: "Password", type: "info" },
    ),
    node(
      "password",
      { name: "method", type: "submit", value: "password" },
      { id: 1010022, text: "Sign in with password", type: "info" },
    ),
    node("passkey", { name: "passkey_challenge", type: "hidden", value: JSON.stringify(options) }),
    node("passkey", {
      name: "passkey_login",
      type: "hidden",
      onload: "window.oryPasskeyLoginAutocompleteInit()",
      onloadTrigger: "oryPasskeyLoginAutocompleteInit",
    }),
    node(
      "passkey",
      {
        name: "passkey_login_trigger",
        type: "button",
        value: "",
        onclick: "window.oryPasskeyLogin()",
        onclickTrigger: "oryPasskeyLogin",
      },
      { id: 1010021, text: "Sign in with passkey", type: "info" },
    ),
  ];
}

/** Kratos' passkey sign-up nodes, to add to a sign-up form (display name from the e-mail). */
export function passkeySignUpNodes(): UiNode[] {
  const createData = {
    credentialOptions: { publicKey: creationOptions("") },
    displayNameFieldName: "traits.email",
    displayNameFieldNames: ["traits.email"],
  };
  return [
    node(
      "passkey",
      {
        name: "passkey_register_trigger",
        type: "button",
        onclick: "window.oryPasskeyRegistration()",
        onclickTrigger: "oryPasskeyRegistration",
      },
      { id: 1040007, text: "Sign up with passkey", type: "info" },
    ),
    node("passkey", { name: "passkey_register", type: "hidden" }),
    node("passkey", {
      name: "passkey_create_data",
      type: "hidden",
      value: JSON.stringify(createData),
    }),
  ];
}

/** Sign-up, the step after the profile: traits kept hidden, the passkey offered. */
export function passkeyRegistrationNodes(): UiNode[] {
  return [
    csrf,
    node("default", { name: "traits.email", type: "hidden", value: "ada@example.org" }),
    ...passkeySignUpNodes(),
  ];
}

function removeLabel(id: number, text: string, name: string, addedAt: string) {
  return {
    id,
    text: `${text} "${name}"`,
    type: "info",
    context: { display_name: name, added_at: addedAt, added_at_unix: Date.parse(addedAt) / 1000 },
  };
}

/** Settings: two passkeys to remove and the button that adds one. */
export function passkeySettingsNodes(): UiNode[] {
  return [
    csrf,
    node(
      "passkey",
      { name: "passkey_remove", type: "submit", value: "6b6579" },
      removeLabel(1050020, "Remove passkey", "Laptop", "2025-03-04T10:00:00Z"),
    ),
    node(
      "passkey",
      { name: "passkey_remove", type: "submit", value: "70686f6e65" },
      removeLabel(1050020, "Remove passkey", "Phone", "2025-06-01T08:30:00Z"),
    ),
    node(
      "passkey",
      {
        name: "passkey_register_trigger",
        type: "button",
        value: "",
        onclick: "window.oryPasskeySettingsRegistration()",
        onclickTrigger: "oryPasskeySettingsRegistration",
      },
      { id: 1050019, text: "Add passkey", type: "info" },
    ),
    node("passkey", { name: "passkey_settings_register", type: "hidden" }),
    node("passkey", {
      name: "passkey_create_data",
      type: "hidden",
      value: JSON.stringify({ publicKey: creationOptions("ada@example.org") }),
    }),
  ];
}

/** Settings: one security key to remove, the name field and the button that adds one. */
export function webauthnSettingsNodes(): UiNode[] {
  return [
    csrf,
    node(
      "webauthn",
      { name: "webauthn_remove", type: "submit", value: "a1b2" },
      removeLabel(1050018, "Remove security key", "Blue key", "2025-01-15T12:00:00Z"),
    ),
    node(
      "webauthn",
      { name: "webauthn_register_displayname", type: "text", value: "" },
      { id: 1050013, text: "Name of the security key", type: "info" },
    ),
    node("webauthn", { name: "webauthn_register", type: "hidden", value: "" }),
    node(
      "webauthn",
      {
        name: "webauthn_register_trigger",
        type: "button",
        value: JSON.stringify({ publicKey: creationOptions("ada@example.org") }),
        onclick: "window.oryWebAuthnRegistration({})",
        onclickTrigger: "oryWebAuthnRegistration",
      },
      { id: 1050012, text: "Add security key", type: "info" },
    ),
  ];
}

/** The second factor with a security key: options on the trigger button, as Kratos does. */
export function webauthnLoginNodes(): UiNode[] {
  return [
    csrf,
    node("default", { name: "identifier", type: "hidden", value: "ada@example.org" }),
    node(
      "webauthn",
      {
        name: "webauthn_login_trigger",
        type: "button",
        value: JSON.stringify({
          publicKey: {
            ...requestOptions.publicKey,
            allowCredentials: [{ type: "public-key", id: "a1b2" }],
          },
        }),
        onclickTrigger: "oryWebAuthnLogin",
      },
      { id: 1010008, text: "Sign in with a hardware key", type: "info" },
    ),
    node("webauthn", { name: "webauthn_login", type: "hidden", value: "" }),
  ];
}
