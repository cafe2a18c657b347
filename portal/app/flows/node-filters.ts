import type { UiNode } from "@portal/client";
import { isInputNode, isSubmitNode } from "./node-guards.ts";

/** Name of an input node, or undefined for every other node kind. */
export function nodeName(node: UiNode): string | undefined {
  return isInputNode(node) ? node.attributes.name : undefined;
}

export function withoutNames(nodes: readonly UiNode[], names: readonly string[]): UiNode[] {
  return nodes.filter((node) => {
    const name = nodeName(node);
    return name === undefined || !names.includes(name);
  });
}

export function findInput(nodes: readonly UiNode[], name: string): UiNode | undefined {
  return nodes.find((node) => nodeName(node) === name);
}

/** The string value of the named input (e.g. the CSRF token a form of the portal's own needs). */
export function inputValue(nodes: readonly UiNode[], name: string): string | undefined {
  const node = findInput(nodes, name);
  const value: unknown = node && isInputNode(node) ? node.attributes.value : undefined;
  return typeof value === "string" ? value : undefined;
}

/**
 * Puts the portal's own nodes right after the node they belong with (e.g. confirm-e-mail after
 * the e-mail field) and keeps submit buttons last, as users expect of a form.
 */
export function insertAfter(
  nodes: readonly UiNode[],
  anchorName: string,
  extra: readonly UiNode[],
): UiNode[] {
  const index = nodes.findIndex((node) => nodeName(node) === anchorName);
  if (index < 0)
    return [...nodes.filter((n) => !isSubmitNode(n)), ...extra, ...nodes.filter(isSubmitNode)];
  return [...nodes.slice(0, index + 1), ...extra, ...nodes.slice(index + 1)];
}

/**
 * The passkey beside the password form, not inside it: its nodes after the password's button
 * (sign-in and sign-up), so the page's first and main action stays the form people fill in.
 */
export function passkeyLast(nodes: readonly UiNode[]): UiNode[] {
  return [
    ...nodes.filter((node) => node.group !== "passkey"),
    ...nodes.filter((node) => node.group === "passkey"),
  ];
}
