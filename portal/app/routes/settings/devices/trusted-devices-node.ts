import type { UiNode } from "@portal/client";
import { isTextAttributes } from "../../../flows/node-guards.ts";

/**
 * Which totp-group nodes are the trusted-devices list and its buttons: the page outline reads
 * this to pick its cards, so it stays apart from the list's parsing (loaded with the card).
 */

/** The text node that carries the list (group totp). */
const trustedDevicesNodeId = "totp-trusted-devices";
export const untrustName = "totp_device_untrust";

export function isTrustedDevicesNode(node: UiNode): boolean {
  return isTextAttributes(node.attributes) && node.attributes.id === trustedDevicesNodeId;
}
