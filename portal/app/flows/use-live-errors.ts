import { useState } from "react";
import type { FieldMessage } from "./messages.ts";

export type FieldErrors = Partial<Record<string, readonly FieldMessage[]>>;

interface LiveState {
  from: unknown;
  errors: FieldErrors;
  submitted: boolean;
  /** Fields the user has typed into since the answer this state started from. */
  changed: readonly string[];
}

/**
 * Messages the browser works out while the user types, on top of the server's. They belong to
 * the answer they started from (`answerKey`: the action's result, or a form's own answer count):
 * a new answer replaces them, and forgets which fields were changed.
 *
 * When a field is checked (see {@link checkWhen}): errors appear on submit or once the user
 * leaves a field they changed, never on the blur of an untouched field; a field already showing
 * an error is checked again as the user types, so the error goes as soon as it is fixed.
 */
export function useLiveErrors(answerKey: unknown) {
  const fresh = (): LiveState => ({ from: answerKey, errors: {}, submitted: false, changed: [] });
  const [live, setLive] = useState<LiveState>(fresh);
  const current = live.from === answerKey ? live : fresh();
  const update = (change: (state: LiveState) => LiveState) =>
    setLive((previous) => change(previous.from === answerKey ? previous : fresh()));
  return {
    errors: current.errors,
    /** The user tried to submit since the last result: the error summary is due. */
    submitted: current.submitted,
    set: (changes: FieldErrors, options: { submit?: boolean } = {}) => {
      update((state) => ({
        ...state,
        errors: { ...state.errors, ...changes },
        submitted: state.submitted || options.submit === true,
      }));
    },
    /** Whether the user typed into this field since the last answer. */
    changed: (name: string) => current.changed.includes(name),
    markChanged: (name: string) => {
      if (current.changed.includes(name)) return;
      update((state) => ({ ...state, changed: [...state.changed, name] }));
    },
  };
}

/**
 * Whether a field's messages are worked out now: typing only re-checks a field that already
 * shows an error; leaving a field checks it once the user changed it.
 */
export function checkWhen(
  event: "input" | "blur",
  state: { changed: boolean; showsError: boolean },
): boolean {
  return event === "input" ? state.showsError : state.changed || state.showsError;
}

/** Whether these messages include an error. */
export function showsError(messages: readonly FieldMessage[] | undefined): boolean {
  return messages?.some((message) => message.type === "error") === true;
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
