import type { UiNode } from "@portal/client";
import { NodeButton } from "./node-button.tsx";
import { NodeCheckbox } from "./node-checkbox.tsx";
import { NodeAnchor, NodeImage, NodeText } from "./node-content.tsx";
import { NodeField, valueAsString } from "./node-field.tsx";
import type { NodeWith } from "./node-guards.ts";
import {
  isAnchorAttributes,
  isImageAttributes,
  isInputAttributes,
  isTextAttributes,
} from "./node-guards.ts";
import type { NodeRenderOptions } from "./node-render-options.ts";

/**
 * The one dispatcher from a flow node to a component: by node kind, then by input type.
 * Script nodes are deliberately dropped — the CSP forbids foreign scripts and the portal never
 * evaluates strings from the identity service.
 */
export function FlowNode(props: { node: UiNode; options?: NodeRenderOptions }) {
  const { node } = props;
  const options = props.options ?? {};
  const { attributes } = node;
  if (isInputAttributes(attributes)) {
    const input: NodeWith<typeof attributes> = { ...node, attributes };
    switch (attributes.type) {
      case "hidden":
        return (
          <input
            type="hidden"
            name={attributes.name}
            value={valueAsString(attributes.value) ?? ""}
          />
        );
      case "submit":
      case "button":
        return <NodeButton node={input} options={options} />;
      case "checkbox":
        return <NodeCheckbox node={input} options={options} />;
      default: {
        const render = options.renderInput?.[attributes.name];
        if (render) return render(input, options.fields?.[attributes.name]);
        return <NodeField node={input} options={options} />;
      }
    }
  }
  if (isImageAttributes(attributes)) return <NodeImage node={{ ...node, attributes }} />;
  if (isAnchorAttributes(attributes)) return <NodeAnchor node={{ ...node, attributes }} />;
  if (isTextAttributes(attributes)) return <NodeText node={{ ...node, attributes }} />;
  return null;
}

/** Inputs whose value is fixed by the flow: several of one name differ only by it. */
const fixedValueTypes = new Set(["hidden", "submit", "button", "checkbox", "radio"]);

/**
 * A stable key: inputs by name (and value, for several submit buttons or hidden fields of one
 * name). A field the person types into is keyed by its name alone: when the flow comes back with
 * another value in it (the answer to a post, then the page's revalidation), the field stays the
 * same element and keeps what was typed meanwhile.
 */
export function nodeKey(node: UiNode, index: number): string {
  const { attributes } = node;
  if (isInputAttributes(attributes)) {
    const value = fixedValueTypes.has(attributes.type) ? valueAsString(attributes.value) : "";
    return `${attributes.name}:${value ?? ""}:${attributes.type}`;
  }
  return `${attributes.node_type}:${index}`;
}
