import type { UiNode, UiText, VerificationFlow } from "@portal/client";
import { findInput, insertAfter, nodeName } from "../../flows/node-filters.ts";
import { isInputNode, isSubmitNode } from "../../flows/node-guards.ts";
import type { InputAttributes, NodeWith } from "../../flows/node-guards.ts";
import { addressField, channelField } from "./verification-rules.ts";
import type { Channel } from "./verification-rules.ts";

/** Kratos' message ids that say where the last code went. */
const sentBySms = 1080004;
const sentByEmail = 1080003;

/** The resend button of a flow that has sent a code: a submit named `email` carrying the address. */
export function resendNode(nodes: readonly UiNode[]): NodeWith<InputAttributes> | undefined {
  return nodes.filter(isSubmitNode).find((node) => node.attributes.name === addressField);
}

/** Where the flow sent its last code, judged by its message and its resend address. */
export function sentChannel(flow: VerificationFlow): Channel | undefined {
  if (flow.state !== "sent_email") return undefined;
  const ids = (flow.ui.messages ?? []).map((message) => message.id);
  if (ids.includes(sentBySms)) return "sms";
  if (ids.includes(sentByEmail)) return "email";
  const address: unknown = resendNode(flow.ui.nodes)?.attributes.value;
  return typeof address === "string" && address.startsWith("+") ? "sms" : "email";
}

const labels: Record<Channel, UiText> = {
  email: { id: 1070007, text: "Email", type: "info" },
  sms: { id: 1070017, text: "Phone number", type: "info" },
};

/**
 * The code form: the flow's nodes without the resend button (it gets a form of its own), with
 * the address field of the chosen channel when it is to be shown, and the channel itself as a
 * hidden field so the action knows which rules apply.
 */
export function verificationFormNodes(
  nodes: readonly UiNode[],
  channel: Channel,
  withAddress: boolean,
): UiNode[] {
  const resend = resendNode(nodes);
  const serverAddress = nodes.find(
    (node) => isInputNode(node) && !isSubmitNode(node) && nodeName(node) === addressField,
  );
  const rest = nodes.filter((node) => node !== resend && node !== serverAddress);
  const extra: UiNode[] = [hiddenChannel(channel)];
  if (withAddress) extra.unshift(addressNode(serverAddress, channel, findInput(nodes, "code")));
  // After the code field when there is one, else before the submit button.
  return insertAfter(rest, "code", extra);
}

function addressNode(
  server: UiNode | undefined,
  channel: Channel,
  code: UiNode | undefined,
): UiNode {
  const attributes: InputAttributes = {
    node_type: "input",
    name: addressField,
    type: channel === "sms" ? "tel" : "email",
    autocomplete: channel === "sms" ? "tel" : "email",
    // With a code field beside it, either one will do (spec §5), so neither is required alone.
    required: code === undefined,
    disabled: false,
  };
  return {
    type: "input",
    group: "code",
    attributes,
    messages: server?.messages ?? [],
    meta: { label: labels[channel] },
  };
}

function hiddenChannel(channel: Channel): UiNode {
  return {
    type: "input",
    group: "default",
    attributes: {
      node_type: "input",
      name: channelField,
      type: "hidden",
      value: channel,
      disabled: false,
    },
    messages: [],
    meta: {},
  };
}
