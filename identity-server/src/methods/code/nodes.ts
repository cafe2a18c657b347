import { uiText } from "../../text/messages.ts";
import { inputNode, type InputNode } from "../../ui/nodes.ts";
import { codeLength } from "./one-time-code.ts";

// The code method's nodes for recovery and verification, as Kratos' code strategy builds them.

/** The address to send a code to (label 1070007 "Email"); it also takes phone numbers. */
export function addressInputNode(value?: string): InputNode {
  return inputNode({
    name: "email",
    type: "email",
    group: "code",
    value: value === "" ? undefined : value,
    required: true,
    label: uiText(1070007),
  });
}

/** Recovery codes are constrained to six digits; verification codes only get the autocomplete hint. */
export function codeInputNode(kind: "recovery" | "verification", value?: string): InputNode {
  const recovery = kind === "recovery";
  return inputNode({
    name: "code",
    type: "text",
    group: "code",
    value,
    required: true,
    autocomplete: "one-time-code",
    ...(recovery ? { pattern: "[0-9]+", maxlength: codeLength } : {}),
    label: uiText(recovery ? 1070010 : 1070011),
  });
}

/** `method=code` as a hidden field, so pressing Enter in the code input still names the method. */
export function methodHiddenNode(): InputNode {
  return inputNode({ name: "method", type: "hidden", group: "code", value: "code" });
}

/** The `method=code` submit labelled "Continue" (1070009). */
export function continueSubmitNode(): InputNode {
  return inputNode({
    name: "method",
    type: "submit",
    group: "code",
    value: "code",
    label: uiText(1070009),
  });
}

/** "Resend code" (1070008): re-posts the address, which deletes the old codes and sends a new one. */
export function resendSubmitNode(name: string, address: string): InputNode {
  return inputNode({
    name,
    type: "submit",
    group: "code",
    value: address,
    label: uiText(1070008),
  });
}
