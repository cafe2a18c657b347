import type { UiContainer } from "@portal/client";
import { isInputAttributes } from "./node-guards.ts";

/**
 * Kratos reports a wrong code as a message of the whole flow (ui.messages), whereas settings
 * puts it on the code field. The portal moves these onto the field they are about, so the
 * field is marked invalid and described by the message (and the error summary links to it).
 */
const fieldOfMessage: Readonly<Record<number, string>> = {
  4000008: "totp_code", // authentication code invalid
  4000012: "lookup_secret", // backup code already used
  4000016: "lookup_secret", // backup code not valid
  4010008: "code", // login code invalid or used
  4040003: "code", // registration code invalid or used
  4060006: "code", // recovery code invalid or used
  4070006: "code", // verification code invalid or used
};

export function codeErrorsOnField<T extends { ui: UiContainer }>(flow: T): T {
  const messages = flow.ui.messages ?? [];
  const hasField = (name: string) =>
    flow.ui.nodes.some(
      (node) => isInputAttributes(node.attributes) && node.attributes.name === name,
    );
  const moved = messages.filter((message) => {
    const field = fieldOfMessage[message.id];
    return message.type === "error" && field !== undefined && hasField(field);
  });
  if (moved.length === 0) return flow;
  const nodes = flow.ui.nodes.map((node) => {
    if (!isInputAttributes(node.attributes)) return node;
    const name = node.attributes.name;
    const own = moved.filter((message) => fieldOfMessage[message.id] === name);
    return own.length === 0 ? node : { ...node, messages: [...node.messages, ...own] };
  });
  return {
    ...flow,
    ui: { ...flow.ui, nodes, messages: messages.filter((message) => !moved.includes(message)) },
  };
}
