import type { Flow } from "../../selfservice/flow.ts";
import { uiText } from "../../text/messages.ts";
import { anchorNode, csrfNode, upsertNode } from "../../ui/nodes.ts";
import {
  addressInputNode,
  codeInputNode,
  continueSubmitNode,
  methodHiddenNode,
  resendSubmitNode,
} from "./nodes.ts";

// The verification flow's screens, node for node in the order Kratos' code strategy appends them.
// Only browser flows carry a csrf_token node.

/** choose_method: email, method=code "Continue", csrf_token. */
export function showVerificationAddressForm(flow: Flow, csrfToken: string | undefined): void {
  flow.ui.nodes.push(addressInputNode(), continueSubmitNode());
  if (csrfToken) upsertNode(flow.ui, csrfNode(csrfToken));
}

/**
 * sent_email: method (hidden), code, method=code "Continue", csrf_token, then "Resend code" named
 * after the channel the hooks used ("email" or "sms") or "email" after a typed address.
 */
export function showVerificationCodeForm(
  flow: Flow,
  csrfToken: string | undefined,
  resend: { name: string; address: string },
  channel: "email" | "sms",
  code?: string,
): void {
  flow.ui.nodes = [methodHiddenNode(), codeInputNode("verification", code), continueSubmitNode()];
  if (csrfToken) upsertNode(flow.ui, csrfNode(csrfToken));
  flow.ui.nodes.push(resendSubmitNode(resend.name, resend.address));
  flow.ui.messages = [uiText(channel === "sms" ? 1080004 : 1080003)];
}

/** passed_challenge: a GET "form" whose only node links to where the user goes next. */
export function showVerificationDone(
  flow: Flow,
  continueUrl: string,
  channel: "email" | "sms",
): void {
  flow.ui = {
    action: continueUrl,
    method: "GET",
    nodes: [anchorNode("continue", continueUrl, "code", uiText(1070009))],
    messages: [uiText(channel === "sms" ? 1080005 : 1080002)],
  };
}

/** Before an error is rendered, Kratos puts the address input (with what was typed) back. */
export function restoreVerificationAddressInput(
  flow: Flow,
  csrfToken: string | undefined,
  email: string,
): void {
  if (csrfToken) upsertNode(flow.ui, csrfNode(csrfToken));
  upsertNode(flow.ui, addressInputNode(email));
}
