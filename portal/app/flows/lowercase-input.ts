/** Spec §5: e-mail inputs are lowercased as typed; the caret stays where it was. */
export function lowercaseInPlace(input: HTMLInputElement): void {
  const lower = input.value.toLowerCase();
  if (lower === input.value) return;
  const { selectionStart, selectionEnd } = input;
  input.value = lower;
  // Browsers refuse selection ranges on type=email inputs.
  if (selectionStart !== null && selectionEnd !== null && input.type !== "email") {
    input.setSelectionRange(selectionStart, selectionEnd);
  }
}
