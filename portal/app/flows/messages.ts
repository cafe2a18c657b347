import type { UiNode, UiText } from "@portal/client";
import type { MessageParams, Translator } from "../i18n/translator.ts";
import { isInputNode, isRecord } from "./node-guards.ts";
import { withWait } from "./wait-text.ts";

type MessageType = "error" | "info" | "success";

/**
 * A message the UI shows, from the identity service (by Kratos id) or from the portal's own
 * validators. `key` points into the catalogue; `fallback` is the server's English text for ids
 * the catalogue does not know yet.
 */
export interface FieldMessage {
  id?: number;
  key: string;
  params?: MessageParams;
  fallback?: string;
  type: MessageType;
}

const trait = /^traits\./;

export function fromUiText(text: UiText, node?: UiNode): FieldMessage {
  const params = isRecord(text.context) ? text.context : {};
  return {
    id: text.id,
    key: `kratos.${text.id}${variantFor(text, node)}`,
    params,
    fallback: text.text,
    type: text.type === "error" || text.type === "success" ? text.type : "info",
  };
}

/**
 * Kratos' generic 4000001 "{reason}" is English prose from the server. The reasons the code
 * method gives for a replaced flow get a catalogue text of their own, so they are translated.
 */
const knownReasons: Readonly<Record<string, string>> = {
  "The request was submitted too often. Please request another code.": ".tooOften",
  "The code was already used. Please request another code.": ".codeUsed",
};

/** 4000001 on a field reads better as "Email must be a valid email." (spec §8: phone or e-mail). */
function variantFor(text: UiText, node: UiNode | undefined): string {
  if (text.id !== 4000001) return "";
  const reason = isRecord(text.context) ? text.context.reason : undefined;
  const known = typeof reason === "string" ? knownReasons[reason] : undefined;
  if (known !== undefined) return known;
  if (node === undefined || !isInputNode(node)) return "";
  const { type, name } = node.attributes;
  if (type === "email" || name.endsWith("email")) return ".email";
  if (type === "tel" || name.endsWith("phone")) return ".phone";
  return "";
}

export function nodeMessages(node: UiNode): FieldMessage[] {
  return node.messages.map((message) => fromUiText(message, node));
}

/**
 * A node's label. Schema-derived labels (1070002 "{title}") carry the schema's English title,
 * so known traits get a catalogue entry of their own ("trait.traits.email").
 */
export function nodeLabel(node: UiNode): FieldMessage | undefined {
  const label = node.meta.label;
  if (label === undefined) return undefined;
  const message = fromUiText(label, node);
  const traitName = isRecord(label.context) ? label.context.name : undefined;
  if (label.id === 1070002 && typeof traitName === "string" && trait.test(traitName)) {
    return { ...message, key: `trait.${traitName}` };
  }
  return message;
}

export function translateMessage(translator: Translator, message: FieldMessage): string {
  const params = withWait(translator, message.params);
  return translator.lookup(message.key, params) ?? message.fallback ?? message.key;
}

export function hasErrors(messages: readonly FieldMessage[]): boolean {
  return messages.some((message) => message.type === "error");
}
