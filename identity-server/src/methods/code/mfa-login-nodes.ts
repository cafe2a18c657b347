import type { CodeMfaAddress } from "./mfa-addresses.ts";
import { uiText } from "../../text/messages.ts";
import { inputNode, type InputNode } from "../../ui/nodes.ts";
import { continueSubmitNode, methodHiddenNode } from "./nodes.ts";

// The code method's second-factor login nodes, as Kratos' code strategy builds them.

function sendCodeLabel(address: CodeMfaAddress) {
  return uiText(
    1010023,
    { address: address.address },
    { address: address.address, channel: address.channel },
  );
}

/** choose_method: one "Send code to {address}" submit (1010023) per address. */
export function addressSubmitNode(address: CodeMfaAddress): InputNode {
  return inputNode({
    name: "address",
    type: "submit",
    group: "code",
    value: address.address,
    label: sendCodeLabel(address),
  });
}

/**
 * sent_email: the chosen address as hidden `identifier` (it keeps its 1010023 label), `method`
 * hidden, the code ("Login code", 1070013), "Continue" (1070009) and "Resend code" (1070008).
 */
export function codeSentNodes(address: CodeMfaAddress): InputNode[] {
  return [
    inputNode({
      name: "identifier",
      type: "hidden",
      group: "code",
      value: address.address,
      label: sendCodeLabel(address),
    }),
    methodHiddenNode(),
    inputNode({
      name: "code",
      type: "text",
      group: "code",
      required: true,
      autocomplete: "one-time-code",
      label: uiText(1070013),
    }),
    continueSubmitNode(),
    inputNode({
      name: "resend",
      type: "submit",
      group: "code",
      value: "code",
      label: uiText(1070008),
    }),
  ];
}
