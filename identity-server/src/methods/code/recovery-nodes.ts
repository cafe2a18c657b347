import type { Flow } from "../../selfservice/flow.ts";
import { uiText } from "../../text/messages.ts";
import { csrfNode, removeGroups, upsertNode, type NodeGroup } from "../../ui/nodes.ts";
import {
  addressInputNode,
  codeInputNode,
  continueSubmitNode,
  methodHiddenNode,
  resendSubmitNode,
} from "./nodes.ts";

// The recovery flow's screens, node for node in the order Kratos' code strategy appends them.

const allGroups: NodeGroup[] = [
  "default",
  "password",
  "oidc",
  "profile",
  "link",
  "code",
  "totp",
  "lookup_secret",
  "webauthn",
  "passkey",
  "identifier_first",
  "saml",
];

/** choose_method: csrf_token, email, method=code "Continue". */
export function showRecoveryAddressForm(flow: Flow, csrfToken: string): void {
  upsertNode(flow.ui, csrfNode(csrfToken));
  upsertNode(flow.ui, addressInputNode());
  flow.ui.nodes.push(continueSubmitNode());
}

/** sent_email: csrf_token, code, method (hidden), method=code "Continue", email "Resend code". */
export function showRecoveryCodeForm(flow: Flow, csrfToken: string, email: string): void {
  removeGroups(flow.ui, allGroups);
  upsertNode(flow.ui, csrfNode(csrfToken));
  flow.ui.nodes.push(
    codeInputNode("recovery"),
    methodHiddenNode(),
    continueSubmitNode(),
    resendSubmitNode("email", email),
  );
  flow.ui.messages = [uiText(1060003)];
}

/** A flow an administrator created: only the code and "Continue" (no address, no resend). */
export function showAdminRecoveryCodeForm(flow: Flow): void {
  flow.ui.nodes = [codeInputNode("recovery"), continueSubmitNode()];
}

/** Before an error is rendered, Kratos puts the address input (with what was typed) back. */
export function restoreRecoveryAddressInput(flow: Flow, csrfToken: string, email: string): void {
  upsertNode(flow.ui, csrfNode(csrfToken));
  upsertNode(flow.ui, addressInputNode(email));
}
