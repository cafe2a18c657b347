/**
 * Where focus goes when the answer to a form's submission comes back on the same page (a
 * failed submission; a success that changes page is the page's heading, see RouteFocus): the
 * error summary when there is one, else the first field marked invalid, else the page's error
 * alert (e.g. "wrong e-mail or password", which belongs to no field). Only when none of these
 * exists does focus stay where it was.
 */
export function focusAfterAnswer(form: HTMLFormElement, summary: HTMLElement | null): void {
  const invalid = form.querySelector<HTMLElement>('[aria-invalid="true"]');
  const alert = form.ownerDocument.querySelector<HTMLElement>('main [role="alert"]');
  const target = (summary?.isConnected ? summary : null) ?? invalid ?? alert;
  if (!target) return;
  if (target === alert && !target.hasAttribute("tabindex")) target.tabIndex = -1;
  target.focus();
}
