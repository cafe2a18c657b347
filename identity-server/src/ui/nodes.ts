import { uiText, type UiText } from "../text/messages.ts";
import type { TraitPath } from "../identity/identity-schema.ts";
import type { FieldMessage } from "./validation-error.ts";
import type {
  AnchorNode,
  ImageNode,
  InputAttributes,
  InputNode,
  InputType,
  NodeGroup,
  TextNode,
  UiContainer,
  UiNode,
} from "./node-types.ts";

// Building, finding and changing UI nodes; their types live in node-types.ts and are re-exported
// here for the callers that import both.
export type {
  NodeGroup,
  InputNode,
  AnchorNode,
  TextNode,
  ImageNode,
  UiNode,
  UiContainer,
} from "./node-types.ts";

/** Kratos' node.ID(): an input's name, otherwise the attributes' id. */
function nodeId(node: UiNode): string {
  return node.type === "input" ? node.attributes.name : node.attributes.id;
}

export interface InputNodeOptions {
  name: string;
  type: InputType;
  group: NodeGroup;
  value?: unknown;
  required?: boolean;
  autocomplete?: string;
  pattern?: string;
  maxlength?: number;
  options?: { value: unknown }[];
  label?: UiText;
  onclick?: string;
  onclickTrigger?: string;
  onload?: string;
  onloadTrigger?: string;
}

/** Builds an input node with its attributes in the order Kratos encodes them. */
export function inputNode(options: InputNodeOptions): InputNode {
  const attributes: InputAttributes = { name: options.name, type: options.type } as InputAttributes;
  if (options.value !== undefined && options.value !== null) attributes.value = options.value;
  if (options.required) attributes.required = true;
  if (options.autocomplete) attributes.autocomplete = options.autocomplete;
  if (options.pattern) attributes.pattern = options.pattern;
  attributes.disabled = false;
  if (options.onclick) attributes.onclick = options.onclick;
  if (options.onclickTrigger) attributes.onclickTrigger = options.onclickTrigger;
  if (options.onload) attributes.onload = options.onload;
  if (options.onloadTrigger) attributes.onloadTrigger = options.onloadTrigger;
  if (options.maxlength !== undefined) attributes.maxlength = options.maxlength;
  if (options.options) attributes.options = options.options;
  attributes.node_type = "input";
  return {
    type: "input",
    group: options.group,
    attributes,
    messages: [],
    meta: options.label ? { label: options.label } : {},
  };
}

/** Sets (or, with undefined/null, removes) a node's value while keeping Kratos' attribute order. */
export function setNodeValue(node: InputNode, value: unknown): void {
  const { name, type, ...rest } = node.attributes;
  delete rest.value;
  node.attributes = {
    name,
    type,
    ...(value !== undefined && value !== null ? { value } : {}),
    ...rest,
  };
}

/** A link node, e.g. verification's "continue" (Kratos' NewAnchorField). */
export function anchorNode(id: string, href: string, group: NodeGroup, title: UiText): AnchorNode {
  return {
    type: "a",
    group,
    attributes: { href, title, id, node_type: "a" },
    messages: [],
    meta: { label: title },
  };
}

/** A text node (Kratos' NewTextField), e.g. the TOTP secret or the backup codes. */
export function textNode(id: string, text: UiText, group: NodeGroup, label?: UiText): TextNode {
  return {
    type: "text",
    group,
    attributes: { text, id, node_type: "text" },
    messages: [],
    meta: label ? { label } : {},
  };
}

/** An image node (Kratos' NewImageField), e.g. the TOTP QR code. */
export function imageNode(
  id: string,
  src: string,
  group: NodeGroup,
  size: { width: number; height: number },
  label?: UiText,
): ImageNode {
  return {
    type: "img",
    group,
    attributes: { src, id, width: size.width, height: size.height, node_type: "img" },
    messages: [],
    meta: label ? { label } : {},
  };
}

/** Removes every node with one of the given ids (Kratos' Nodes.Remove). */
export function removeNodes(container: UiContainer, ids: readonly string[]): void {
  container.nodes = container.nodes.filter((node) => !ids.includes(nodeId(node)));
}

export function csrfNode(token: string): InputNode {
  return inputNode({
    name: "csrf_token",
    type: "hidden",
    group: "default",
    value: token,
    required: true,
  });
}

/** One input per trait, as Kratos' NewInputFieldFromSchema builds them. */
export function traitNode(path: TraitPath, group: NodeGroup): InputNode {
  let type: InputType = "text";
  let autocomplete: string | undefined;
  if (path.type === "boolean") type = "checkbox";
  else if (path.type === "number" || path.type === "integer") type = "number";
  switch (path.format) {
    case "date-time":
      type = "datetime-local";
      break;
    case "email":
      type = "email";
      autocomplete = "email";
      break;
    case "tel":
      type = "tel";
      autocomplete = "tel";
      break;
    case "date":
      type = "date";
      break;
    case "uri":
      type = "url";
      autocomplete = "url";
      break;
  }
  return inputNode({
    name: path.name,
    type,
    group,
    required: path.required,
    autocomplete,
    pattern: path.pattern,
    options: path.enum?.slice(0, 500).map((value) => ({ value })),
    label: path.title ? uiText(1070002, { title: path.title, name: path.name }) : undefined,
  });
}

function findNode(container: UiContainer, id: string): UiNode | undefined {
  return container.nodes.find((node) => nodeId(node) === id);
}

export function findInput(container: UiContainer, name: string): InputNode | undefined {
  return container.nodes.find(
    (node): node is InputNode => node.type === "input" && node.attributes.name === name,
  );
}

/** Replaces the node with the same id (an input's name), or appends it, as Kratos' Upsert. */
export function upsertNode(container: UiContainer, node: UiNode): void {
  const index = container.nodes.findIndex((n) => nodeId(n) === nodeId(node));
  if (index === -1) container.nodes.push(node);
  else container.nodes[index] = node;
}

/** Removes every node of the given groups (Kratos' ClearTransientNodes when given them all). */
export function removeGroups(container: UiContainer, groups: readonly NodeGroup[]): void {
  container.nodes = container.nodes.filter((node) => !groups.includes(node.group));
}

/** Clears form-level and node messages before a flow is re-rendered with new ones. */
export function resetMessages(container: UiContainer): void {
  delete container.messages;
  for (const node of container.nodes) node.messages = [];
}

/** Adds a message to the named node (creating a text input for an unknown field) or the form. */
export function addMessage(container: UiContainer, { field, message }: FieldMessage): void {
  if (field === "") {
    container.messages = [...(container.messages ?? []), message];
    return;
  }
  const node = findNode(container, field);
  if (node) {
    node.messages.push(message);
    return;
  }
  const created = inputNode({ name: field, type: "text", group: "default" });
  created.messages.push(message);
  container.nodes.push(created);
}

/** Flattens nested JSON to dotted keys: {traits:{email:"a"}} → {"traits.email":"a"}. */
function flatten(value: unknown, prefix = ""): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return prefix === "" ? {} : { [prefix]: value };
  }
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    Object.assign(out, flatten(child, prefix === "" ? key : `${prefix}.${key}`));
  }
  return out;
}

/** Writes submitted trait values back into the existing trait nodes. */
export function setTraitValues(container: UiContainer, traits: unknown): void {
  for (const [name, value] of Object.entries(flatten(traits, "traits"))) {
    const node = findInput(container, name);
    if (node) setNodeValue(node, value);
  }
}

export interface SortOptions {
  groups: NodeGroup[];
  keys: string[];
}

function goFormat(value: unknown): string {
  if (value === undefined || value === null) return "<nil>";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/**
 * Kratos' SortBySchema: a stable sort by group order, then (within a group, and across
 * default/password) by the first key the node name starts with; `method` submits go last.
 */
export function sortNodes(nodes: UiNode[], options: SortOptions): UiNode[] {
  const position = (node: UiNode): number => {
    const id = nodeId(node);
    if (id === "method") return nodes.length + options.keys.length + 1;
    const index = options.keys.findIndex((key) => id.startsWith(key));
    return index === -1 ? options.keys.length : index;
  };
  const value = (node: UiNode): unknown =>
    node.type === "input" ? node.attributes.value : undefined;
  const groupIndex = (node: UiNode) => options.groups.indexOf(node.group);
  const byGroup = [...nodes].sort((a, b) => groupIndex(a) - groupIndex(b));
  return byGroup.sort((a, b) => {
    const comparable =
      a.group === b.group ||
      (a.group === "default" && b.group === "password") ||
      (a.group === "password" && b.group === "default");
    if (!comparable) return 0;
    const diff = position(a) - position(b);
    if (diff !== 0) return diff;
    const va = goFormat(value(a));
    const vb = goFormat(value(b));
    return va < vb ? -1 : va > vb ? 1 : 0;
  });
}
