/** Spec §5: e-mail inputs are lowercased as typed; the caret stays where it was. */
export function lowercaseInPlace(input: HTMLInputElement): void {
  const lower = input.value.toLowerCase();
  if (lower === input.value) return;
  const { selectionStart, selectionEnd } = input;
  input.value = lower;
  // E-mail fields are type=text for this (see inputTraits): type=email refuses selection ranges.
  if (selectionStart !== null && selectionEnd !== null) {
    input.setSelectionRange(selectionStart, selectionEnd);
  }
}
