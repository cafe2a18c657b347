import type { UiNode } from "@portal/client";
import { isInputNode } from "../node-guards.ts";

/**
 * The name of the script trigger a Kratos WebAuthn or passkey node carries (`onclickTrigger`,
 * `onloadTrigger`, e.g. "oryPasskeyLogin"). The portal runs its own function for each known
 * name (ceremonies.ts, which refuses others); the nodes' `onclick` and `onload` strings are never
 * evaluated (the CSP forbids it, and they come from another service). Kept this small because
 * every sign-in page loads it.
 */
export function triggerOf(node: UiNode, on: "click" | "load"): string | undefined {
  if (!isInputNode(node)) return undefined;
  const { attributes } = node;
  return (on === "click" ? attributes.onclickTrigger : attributes.onloadTrigger) || undefined;
}

/** Whether a form needs the WebAuthn module at all: only then is it loaded. */
export function hasTriggers(nodes: readonly UiNode[]): boolean {
  return nodes.some((node) => triggerOf(node, "click") ?? triggerOf(node, "load"));
}
