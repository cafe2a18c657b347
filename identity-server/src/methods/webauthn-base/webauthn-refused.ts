import { uiText } from "../../text/messages.ts";
import { ValidationError } from "../../ui/validation-error.ts";

/**
 * A WebAuthn ceremony that did not verify (wrong origin, a used or missing challenge, a counter that
 * went back, a bad signature, unreadable JSON…). It is a validation error, so the flow shows its
 * form again with Kratos' 4000043 ("The provided web authn login is invalid, please try again.")
 * instead of answering 500; `reason` says what failed, for logs and tests, never for users.
 */
export class WebAuthnRefused extends ValidationError {
  readonly reason: string;

  constructor(reason: string) {
    super([{ field: "", message: uiText(4000043) }]);
    this.name = "WebAuthnRefused";
    this.reason = reason;
  }
}
