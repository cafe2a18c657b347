import type { LoginFlow } from "@portal/client";
import { isInputNode } from "../../flows/node-guards.ts";

/**
 * The account a re-authentication or second factor is for, as the flow names it: Kratos puts
 * the session's identifier into a hidden `identifier` input on refresh (password strategy) and
 * on the second factor when a method needs it (code sent, security key). Undefined for a plain
 * sign-in (its identifier is what the person typed) and when the flow names nobody.
 */
export function flowAccount(
  flow: Pick<LoginFlow, "refresh" | "requested_aal" | "ui">,
): string | undefined {
  if (flow.refresh !== true && flow.requested_aal !== "aal2") return undefined;
  for (const node of flow.ui.nodes) {
    if (!isInputNode(node) || node.attributes.name !== "identifier") continue;
    if (node.attributes.type !== "hidden") continue;
    const value: unknown = node.attributes.value;
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}
