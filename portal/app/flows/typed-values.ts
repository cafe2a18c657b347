import type { UiNode } from "@portal/client";
import { isInputNode } from "./node-guards.ts";

/** Input types whose value is what the person typed (not buttons, hidden fields or secrets). */
const typedTypes = new Set(["text", "email", "tel", "number", "url", "date", "datetime-local"]);

/**
 * The flow's nodes with `values` (posted field name → text) as the inputs' values, so a form
 * shown again after a refused submission holds what was typed. Passwords, hidden fields (the
 * CSRF token) and buttons keep the flow's own values.
 */
export function withTypedValues(
  nodes: readonly UiNode[],
  values: Readonly<Record<string, string>>,
): UiNode[] {
  return nodes.map((node) => {
    if (!isInputNode(node) || !typedTypes.has(node.attributes.type)) return node;
    const value = values[node.attributes.name];
    if (value === undefined) return node;
    return { ...node, attributes: { ...node.attributes, value } };
  });
}
