import { useState } from "react";
import type { FieldMessage } from "./messages.ts";

export type FieldErrors = Partial<Record<string, readonly FieldMessage[]>>;

/**
 * Messages the browser works out while the user types, on top of the server's. They belong to
 * the action result they started from: a new result (a new flow, the server's own messages)
 * replaces them.
 */
export function useLiveErrors(actionData: unknown) {
  const [live, setLive] = useState<{ from: unknown; errors: FieldErrors; submitted: boolean }>({
    from: actionData,
    errors: {},
    submitted: false,
  });
  const current = live.from === actionData;
  const errors = current ? live.errors : {};
  const submitted = current && live.submitted;
  return {
    errors,
    /** The user tried to submit since the last result: the error summary is due. */
    submitted,
    set: (changes: FieldErrors, options: { submit?: boolean } = {}) => {
      setLive({
        from: actionData,
        errors: { ...errors, ...changes },
        submitted: submitted || options.submit === true,
      });
    },
  };
}

/** The live messages for a field when it has any, else the server's, else none. */
export function messagesFor(
  name: string,
  live: FieldErrors,
  server: FieldErrors,
): readonly FieldMessage[] | undefined {
  return name in live ? live[name] : server[name];
}

/** Moves focus to the first field of `names` that has an error, as the user just submitted. */
export function focusFirstInvalid(
  form: HTMLFormElement,
  names: readonly string[],
  errors: FieldErrors,
): void {
  const first = names.find((name) => (errors[name]?.length ?? 0) > 0);
  const element = first === undefined ? null : form.elements.namedItem(first);
  if (element instanceof HTMLInputElement) element.focus();
}

/** Which button submitted the form (its name), so e.g. "Resend code" skips the code check. */
export function submitterName(event: { nativeEvent: Event }): string | undefined {
  const submitter = (event.nativeEvent as SubmitEvent).submitter;
  return submitter instanceof HTMLButtonElement ? submitter.name : undefined;
}
