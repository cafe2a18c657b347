import { signInStarted, watchMarker } from "./oauth2-marker.ts";
import type { MarkerPage } from "./oauth2-marker.ts";
import { browserStorage, readRemembered, writeRemembered } from "./remember-me.ts";

/** The remember-me checkbox's name (a field the portal keeps to itself, see login.server). */
const rememberMeName = "remember_me";

export interface LoginPage extends MarkerPage {
  /** The sign-in form of a plain (first-factor, not refresh) flow, when one is shown. */
  form: HTMLFormElement | null;
}

let plainForm: HTMLFormElement | null = null;
const watchedForms = new WeakSet<HTMLFormElement>();

/**
 * What the login page does in the browser beyond rendering, loaded after hydration so it costs
 * the sign-in page's JavaScript budget nothing: the OAuth challenge marker (spec §4) and
 * remember-me (spec §3 browser storage: fill in the remembered identifier, and on submit
 * remember or forget it).
 */
export function enhanceLogin(page: LoginPage): void {
  watchMarker(page);
  plainForm = page.form;
  const form = page.form;
  if (!form) return;
  const remembered = readRemembered(browserStorage());
  const checkbox = form.elements.namedItem(rememberMeName);
  const identifier = form.elements.namedItem("identifier");
  if (remembered && checkbox instanceof HTMLInputElement) checkbox.checked = true;
  if (remembered?.identifier && identifier instanceof HTMLInputElement && identifier.value === "") {
    identifier.value = remembered.identifier;
  }
  if (watchedForms.has(form)) return;
  watchedForms.add(form);
  form.addEventListener("submit", () => {
    if (form !== plainForm) return;
    signInStarted();
    const box = form.elements.namedItem(rememberMeName);
    const field = form.elements.namedItem("identifier");
    if (!(box instanceof HTMLInputElement) || !(field instanceof HTMLInputElement)) return;
    writeRemembered(browserStorage(), box.checked, field.value.trim());
  });
}
