import type { ReactNode } from "react";
import type { FieldMessage } from "./messages.ts";
import type { InputAttributes, NodeWith } from "./node-guards.ts";

/** What a screen can lay over the server's node for one field. */
export interface FieldState {
  /** Replaces the node's own messages (e.g. the portal's live validation). */
  messages?: readonly FieldMessage[];
  /** Value to show instead of the node's (e.g. what the user typed before a failed submit). */
  value?: string;
  /** Already translated label, for fields the portal adds itself. */
  label?: string;
  /** Already translated help text under the field, read out with it. */
  hint?: string;
  /** Rendered under the field (e.g. the password rules), and what the field points at with it. */
  details?: { id: string; content: ReactNode };
  /** Shown but not editable here (and so not posted), e.g. the e-mail on the settings page. */
  disabled?: boolean;
}

export interface NodeRenderOptions {
  fields?: Readonly<Record<string, FieldState>>;
  onFieldInput?: (name: string, input: HTMLInputElement) => void;
  onFieldBlur?: (name: string, input: HTMLInputElement) => void;
  /**
   * Changes when the answer to this form's submission arrives (see useOwnAnswer). Password inputs are
   * keyed by it: the identity service never sends a password back, so after a failed
   * submission the field must be empty, as it is without JavaScript.
   */
  renderKey?: string;
  /** While a submission is in flight: buttons are disabled so it cannot be sent twice. */
  submitting?: boolean;
  /** Submit buttons (by name) that are a side way, not the form's main action (e.g. resend). */
  secondaryButtons?: readonly string[];
  /** Submit buttons (by name) that take something away (unlink, disable): the red outline. */
  destructiveButtons?: readonly string[];
  /** Runs a WebAuthn trigger button's ceremony (FlowForm's, see webauthn/use-webauthn.ts). */
  runTrigger?: (trigger: string) => void;
  /** Checks the form before a WebAuthn ceremony starts; false stops it (e.g. a bad e-mail). */
  beforeTrigger?: (trigger: string) => boolean;
  /** Inputs a screen renders its own way, by name (e.g. a phone number with a country picker). */
  renderInput?: Readonly<
    Record<string, (node: NodeWith<InputAttributes>, state: FieldState | undefined) => ReactNode>
  >;
}
