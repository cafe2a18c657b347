import type { UiText } from "../text/messages.ts";

// The shapes of Kratos' UI nodes and of the containers (flow.ui) that hold them.

export type NodeGroup =
  | "default"
  | "password"
  | "oidc"
  | "profile"
  | "link"
  | "code"
  | "totp"
  | "lookup_secret"
  | "webauthn"
  | "passkey"
  | "identifier_first"
  | "captcha"
  | "saml";

export type InputType =
  | "text"
  | "password"
  | "number"
  | "checkbox"
  | "hidden"
  | "email"
  | "tel"
  | "submit"
  | "button"
  | "datetime-local"
  | "date"
  | "url";

export interface InputAttributes {
  name: string;
  type: InputType;
  value?: unknown;
  required?: boolean;
  autocomplete?: string;
  label?: UiText;
  pattern?: string;
  disabled: boolean;
  /** Kratos' deprecated `onclick` (a script to evaluate); kept for Ory's own UIs, never evaluated by ours. */
  onclick?: string;
  /** The WebAuthn function a click starts (Kratos' `onclickTrigger`, e.g. `oryWebAuthnLogin`). */
  onclickTrigger?: string;
  /** Kratos' deprecated `onload`, as `onclick`. */
  onload?: string;
  /** The WebAuthn function to start when the form loads (e.g. `oryPasskeyLoginAutocompleteInit`). */
  onloadTrigger?: string;
  maxlength?: number;
  options?: { value: unknown }[];
  node_type: "input";
}

export interface InputNode {
  type: "input";
  group: NodeGroup;
  attributes: InputAttributes;
  messages: UiText[];
  meta: { label?: UiText };
}

interface AnchorAttributes {
  href: string;
  title: UiText;
  id: string;
  node_type: "a";
}

export interface AnchorNode {
  type: "a";
  group: NodeGroup;
  attributes: AnchorAttributes;
  messages: UiText[];
  meta: { label?: UiText };
}

interface TextAttributes {
  text: UiText;
  id: string;
  /** Our extension for the trusted-devices node: the same JSON as the text (portal spec §3). */
  data?: string;
  node_type: "text";
}

export interface TextNode {
  type: "text";
  group: NodeGroup;
  attributes: TextAttributes;
  messages: UiText[];
  meta: { label?: UiText };
}

interface ImageAttributes {
  src: string;
  id: string;
  width: number;
  height: number;
  node_type: "img";
}

export interface ImageNode {
  type: "img";
  group: NodeGroup;
  attributes: ImageAttributes;
  messages: UiText[];
  meta: { label?: UiText };
}

export type UiNode = InputNode | AnchorNode | TextNode | ImageNode;

export interface UiContainer {
  action: string;
  method: string;
  nodes: UiNode[];
  messages?: UiText[];
}
