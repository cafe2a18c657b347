import { markerNeeded } from "./oauth2-marker-key.ts";
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

type MarkerModule = typeof import("./oauth2-marker.ts");
let markerLoad: Promise<MarkerModule> | undefined;
/** The marker's module once loaded: only pages that need it (markerNeeded) load it. */
let marker: MarkerModule | undefined;
/** The page shown last: a marker load that settles after another page showed is not applied. */
let shownPage: LoginPage | undefined;

function applyMarker(page: LoginPage): void {
  if (!markerNeeded(page.challenge)) return;
  markerLoad ??= import("./oauth2-marker.ts");
  markerLoad.then(
    (module) => {
      marker = module;
      if (shownPage === page) module.watchMarker(page);
    },
    (error: unknown) => {
      // The marker is a convenience: without it the links simply navigate, as with no scripts.
      console.warn(error);
      markerLoad = undefined;
    },
  );
}

/**
 * What the login page does in the browser beyond rendering, loaded after hydration so it costs
 * the sign-in page's JavaScript budget nothing: the OAuth challenge marker (spec §4, its code
 * loaded only when the flow has a challenge or the tab holds a marker) and
 * remember-me (spec §3 browser storage: fill in the remembered identifier, and on submit
 * remember or forget it).
 */
export function enhanceLogin(page: LoginPage): void {
  shownPage = page;
  applyMarker(page);
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
    marker?.signInStarted();
    const box = form.elements.namedItem(rememberMeName);
    const field = form.elements.namedItem("identifier");
    if (!(box instanceof HTMLInputElement) || !(field instanceof HTMLInputElement)) return;
    writeRemembered(browserStorage(), box.checked, field.value.trim());
  });
}
