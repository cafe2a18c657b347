import type { UiNode } from "@portal/client";
import { insertAfter, passkeyLast, withoutNames } from "../../flows/node-filters.ts";
import { fieldNames } from "./validation.ts";

/** Fields the portal adds to the identity service's form (spec §5: required, group "code"). */
function confirmNode(name: string, type: "email" | "password"): UiNode {
  return {
    type: "input",
    group: "code",
    attributes: {
      node_type: "input",
      name,
      type,
      required: true,
      disabled: false,
      autocomplete: type === "email" ? "email" : "new-password",
      value: "",
    },
    messages: [],
    meta: {},
  };
}

/** The server's nodes without the phone field, with confirm-e-mail and confirm-password added. */
export function registrationNodes(nodes: readonly UiNode[]): UiNode[] {
  const withoutPhone = withoutNames(nodes, ["traits.phone"]);
  const withEmail = insertAfter(withoutPhone, fieldNames.email, [
    confirmNode(fieldNames.confirmEmail, "email"),
  ]);
  return passkeyLast(
    insertAfter(withEmail, fieldNames.password, [
      confirmNode(fieldNames.confirmPassword, "password"),
    ]),
  );
}
