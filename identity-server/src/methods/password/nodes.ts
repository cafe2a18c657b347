import { uiText } from "../../text/messages.ts";
import { inputNode, type InputNode } from "../../ui/nodes.ts";

export function passwordNode(autocomplete: "current-password" | "new-password"): InputNode {
  return inputNode({
    name: "password",
    type: "password",
    group: "password",
    required: true,
    autocomplete,
    label: uiText(1070001),
  });
}

/** The `method=password` submit button; its label differs per screen (sign in / sign up). */
export function passwordSubmitNode(labelId: number): InputNode {
  return inputNode({
    name: "method",
    type: "submit",
    group: "password",
    value: "password",
    label: uiText(labelId),
  });
}
