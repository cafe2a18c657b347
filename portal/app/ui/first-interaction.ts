import { useEffect, useState } from "react";

/** What a person does first on a page: the mouse moving or pressing, a key, a touch, a focus. */
const interactions = ["pointermove", "pointerdown", "keydown", "touchstart", "focusin"] as const;

/** Set by the first interaction this document saw: later pages and forms need not wait. */
let interacted = false;

/** True when a field already has the focus (the person reached it before the page hydrated). */
function fieldFocused(): boolean {
  return document.activeElement?.matches("input, textarea, select") ?? false;
}

/**
 * Runs `callback` once, on the person's first interaction with the page (or at once when a
 * field already has the focus); returns what stops waiting. For code a signed-out page needs
 * only once someone uses it (the fingerprint before a submission, the passkey autofill before
 * the identifier field's suggestions): a page nobody touches does not load it (DESIGN §6).
 */
export function onFirstInteraction(callback: () => void): () => void {
  if (interacted || fieldFocused()) {
    interacted = true;
    callback();
    return () => {};
  }
  const stop = () => {
    for (const type of interactions) window.removeEventListener(type, fire, true);
  };
  function fire() {
    interacted = true;
    stop();
    callback();
  }
  for (const type of interactions) {
    window.addEventListener(type, fire, { capture: true, passive: true });
  }
  return stop;
}

/** False until the person first interacts with the page (see {@link onFirstInteraction}). */
export function useFirstInteraction(): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => onFirstInteraction(() => setSeen(true)), []);
  return seen;
}
