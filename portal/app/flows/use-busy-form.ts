import { useEffect } from "react";
import type { RefObject, SyntheticEvent } from "react";

const textLike = /^(?:text|email|password|tel|number|url|search|date|datetime-local)$/;
const controls = "input:not([type=hidden]), select, textarea";

/**
 * Spec §4: while a submission is in flight, the form's nodes are disabled too, not only its
 * buttons. Real `disabled` would drop focus to the page and, were the data not yet captured,
 * leave the fields out of what is posted; so the controls become read-only and aria-disabled
 * instead (React Router has already taken the form data when the navigation says "submitting"),
 * and clicks and keys that would change a checkbox or a select are refused.
 */
export function useBusyForm(form: RefObject<HTMLFormElement | null>, busy: boolean) {
  useEffect(() => {
    const element = form.current;
    if (!busy || !element) return;
    const undo: (() => void)[] = [];
    for (const control of element.querySelectorAll<HTMLElement>(controls)) {
      if ((control as HTMLInputElement).disabled) continue;
      if (control.getAttribute("aria-disabled") === null) {
        control.setAttribute("aria-disabled", "true");
        undo.push(() => control.removeAttribute("aria-disabled"));
      }
      const editable =
        control instanceof HTMLTextAreaElement ||
        (control instanceof HTMLInputElement && textLike.test(control.type));
      if (editable && !control.readOnly) {
        control.readOnly = true;
        undo.push(() => (control.readOnly = false));
      }
    }
    return () => {
      for (const step of undo) step();
    };
  }, [form, busy]);

  /** Capture-phase handlers for the form: while busy, no checkbox ticks, no select changes. */
  const refuse = (event: SyntheticEvent) => {
    if (!busy) return;
    const target = event.target;
    const toggles = target instanceof HTMLInputElement && /^(?:checkbox|radio)$/.test(target.type);
    const select = target instanceof HTMLSelectElement;
    const label = target instanceof Element && target.closest("label") !== null;
    if (event.type === "keydown" && (event as unknown as KeyboardEvent).key === "Tab") return;
    if (toggles || select || (label && event.type === "click")) event.preventDefault();
  };
  return { onClickCapture: refuse, onKeyDownCapture: refuse, onMouseDownCapture: refuse };
}
