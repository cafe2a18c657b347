import { uiText } from "../../text/messages.ts";
import { imageNode, inputNode, textNode, type UiNode } from "../../ui/nodes.ts";

// The TOTP nodes, as Kratos' strategy/totp/nodes.go and login.go build them.

/** Settings, no app linked yet: the QR code (1050005) of the key. */
export function totpQrNode(dataUrl: string): UiNode {
  return imageNode("totp_qr", dataUrl, "totp", { width: 256, height: 256 }, uiText(1050005));
}

/** Settings, no app linked yet: the base32 secret as text (1050006), labelled 1050017. */
export function totpSecretNode(secret: string): UiNode {
  return textNode("totp_secret_key", uiText(1050006, { secret }), "totp", uiText(1050017));
}

/** Settings, no app linked yet: the code that proves the app was set up ("Verify code", 1070006). */
export function totpVerifyNode(): UiNode {
  return inputNode({
    name: "totp_code",
    type: "text",
    group: "totp",
    required: true,
    label: uiText(1070006),
  });
}

/** Settings, no app linked yet: `method=totp` "Save" (1070003). */
export function totpSaveNode(): UiNode {
  return inputNode({
    name: "method",
    type: "submit",
    group: "totp",
    value: "totp",
    label: uiText(1070003),
  });
}

/** Settings, app linked: "Unlink TOTP Authenticator App" (1050004). */
export function totpUnlinkNode(): UiNode {
  return inputNode({
    name: "totp_unlink",
    type: "submit",
    group: "totp",
    value: "true",
    required: true,
    label: uiText(1050004),
  });
}

/** Second-factor login: the code ("Authentication code", 1010006), empty. */
export function totpLoginCodeNode(): UiNode {
  return inputNode({
    name: "totp_code",
    type: "text",
    group: "totp",
    value: "",
    required: true,
    label: uiText(1010006),
  });
}

/** Second-factor login: `method=totp` "Use Authenticator" (1010009). */
export function totpLoginSubmitNode(): UiNode {
  return inputNode({
    name: "method",
    type: "submit",
    group: "totp",
    value: "totp",
    label: uiText(1010009),
  });
}
