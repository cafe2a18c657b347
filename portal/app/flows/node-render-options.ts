import type { FieldMessage } from "./messages.ts";

/** What a screen can lay over the server's node for one field. */
export interface FieldState {
  /** Replaces the node's own messages (e.g. the portal's live validation). */
  messages?: readonly FieldMessage[];
  /** Value to show instead of the node's (e.g. what the user typed before a failed submit). */
  value?: string;
  /** Already translated label, for fields the portal adds itself. */
  label?: string;
}

export interface NodeRenderOptions {
  fields?: Readonly<Record<string, FieldState>>;
  onFieldInput?: (name: string, input: HTMLInputElement) => void;
  onFieldBlur?: (name: string, input: HTMLInputElement) => void;
  /** While a submission is in flight: buttons are disabled so it cannot be sent twice. */
  submitting?: boolean;
}
