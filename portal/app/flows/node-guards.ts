import type { UiNode, UiNodeAttributes } from "@portal/client";

/** Each node kind's attributes, narrowed from the SDK's union by its `node_type` tag. */
export type InputAttributes = Extract<UiNodeAttributes, { node_type: "input" }>;
export type TextAttributes = Extract<UiNodeAttributes, { node_type: "text" }>;
export type ImageAttributes = Extract<UiNodeAttributes, { node_type: "img" }>;
export type AnchorAttributes = Extract<UiNodeAttributes, { node_type: "a" }>;
export type ScriptAttributes = Extract<UiNodeAttributes, { node_type: "script" }>;

export type NodeWith<A> = Omit<UiNode, "attributes"> & { attributes: A };

export function isInputAttributes(attributes: UiNodeAttributes): attributes is InputAttributes {
  return attributes.node_type === "input";
}

export function isTextAttributes(attributes: UiNodeAttributes): attributes is TextAttributes {
  return attributes.node_type === "text";
}

export function isImageAttributes(attributes: UiNodeAttributes): attributes is ImageAttributes {
  return attributes.node_type === "img";
}

export function isAnchorAttributes(attributes: UiNodeAttributes): attributes is AnchorAttributes {
  return attributes.node_type === "a";
}

export function isScriptAttributes(attributes: UiNodeAttributes): attributes is ScriptAttributes {
  return attributes.node_type === "script";
}

export function isInputNode(node: UiNode): node is NodeWith<InputAttributes> {
  return isInputAttributes(node.attributes);
}

export function isHiddenInputNode(node: UiNode): node is NodeWith<InputAttributes> {
  return isInputNode(node) && node.attributes.type === "hidden";
}

/** Buttons that submit the form: their name=value tells the identity service what was chosen. */
export function isSubmitNode(node: UiNode): node is NodeWith<InputAttributes> {
  return isInputNode(node) && node.attributes.type === "submit";
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
