import type { UiNode } from "@portal/client";
import { nodeName } from "../../../flows/node-filters.ts";
import { isTrustedDevicesNode, untrustName } from "../devices/trusted-devices-node.ts";

/**
 * Which of the totp group's cards show: read by the page outline (cards/index.ts), so it stays
 * out of the cards' own chunk (all-cards.ts).
 */

/** The trusted-devices list shares the group but is a card of its own. */
export function totpNodes(nodes: readonly UiNode[]): UiNode[] {
  return nodes.filter((node) => !isTrustedDevicesNode(node) && nodeName(node) !== untrustName);
}

/** Shows when the group has more than the trusted devices (it always does, linked or not). */
export function hasTotpSetting(groupNodes: readonly UiNode[]): boolean {
  return totpNodes(groupNodes).some((node) => node.group === "totp");
}

/** Shows while the identity service sends the list (the identity has a second factor). */
export function hasTrustedDevices(groupNodes: readonly UiNode[]): boolean {
  return groupNodes.some(isTrustedDevicesNode);
}
