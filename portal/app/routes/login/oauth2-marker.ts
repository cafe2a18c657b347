/**
 * Spec §4 OAuth challenge marker, kept in sessionStorage (per tab). Loaded lazily by the login
 * page, so none of this counts against the sign-in page's JavaScript budget.
 *
 * - A login flow carrying a login_challenge sets it to "init".
 * - Choosing a different login there ("use a different account", "cancel" on refresh and
 *   second-factor flows) while "init" sets it to "invalid", tries to close the window (a popup
 *   the application opened), signs out and 500 ms later loads /login again.
 * - Every login page shows 'login.oauth_interrupted' while it is "invalid" (reloads included):
 *   it stays "invalid" until a flow with a challenge sets "init" again, or the user submits the
 *   sign-in form (a new sign-in, whose own outcome replaces the message). A login page without
 *   a challenge drops a stale "init".
 * Without JavaScript the links simply work (sign out → /login).
 */
import { markerKey } from "./oauth2-marker-key.ts";

export const reloadDelayMs = 500;

type Marker = "init" | "invalid";

export interface MarkerPage {
  /** Whether the page's flow carries a login_challenge. */
  challenge: boolean;
  locale: string;
  /** Shows or hides the 'login.oauth_interrupted' alert. */
  interrupted: (shown: boolean) => void;
}

export interface MarkerEnvironment {
  storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> | undefined;
  closeWindow: () => void;
  signOut: (url: string) => Promise<unknown>;
  go: (url: string) => void;
  wait: (ms: number) => Promise<void>;
}

function read(storage: MarkerEnvironment["storage"]): Marker | undefined {
  try {
    const value = storage?.getItem(markerKey);
    return value === "init" || value === "invalid" ? value : undefined;
  } catch {
    return undefined;
  }
}

function write(storage: MarkerEnvironment["storage"], value: Marker | undefined): void {
  try {
    if (value) storage?.setItem(markerKey, value);
    else storage?.removeItem(markerKey);
  } catch {
    // Storage refused (private mode, quota): the marker is a convenience, never a gate.
  }
}

/** Called whenever the login page shows a flow. */
export function markerOnShow(page: MarkerPage, env: MarkerEnvironment): void {
  const marker = read(env.storage);
  if (page.challenge) {
    write(env.storage, "init");
    page.interrupted(false);
  } else if (marker === "invalid") {
    page.interrupted(true);
  } else if (marker === "init") {
    write(env.storage, undefined);
  }
}

/** The user submits the sign-in form: the interrupted sign-in is behind them. */
export function markerOnSignIn(page: MarkerPage, env: MarkerEnvironment): void {
  if (read(env.storage) !== "invalid") return;
  write(env.storage, undefined);
  page.interrupted(false);
}

/**
 * A click on one of the "different login" links. Returns whether the marker took over (the
 * caller then cancels the link's own navigation).
 */
export function markerOnDifferentLogin(page: MarkerPage, env: MarkerEnvironment): boolean {
  if (!page.challenge || read(env.storage) !== "init") return false;
  write(env.storage, "invalid");
  void (async () => {
    try {
      env.closeWindow();
    } catch {
      // Only windows a script opened may be closed; this one goes on below.
    }
    await env.signOut(`/${page.locale}/logout`).catch(() => undefined);
    await env.wait(reloadDelayMs);
    env.go(`/${page.locale}/login`);
  })();
  return true;
}

function browserEnvironment(): MarkerEnvironment {
  let storage: Storage | undefined;
  try {
    storage = window.sessionStorage;
  } catch {
    storage = undefined;
  }
  return {
    storage,
    closeWindow: () => window.close(),
    // The logout route's sign-out form (a POST: a GET only asks) redirects through the identity
    // service's logout, which clears the session.
    signOut: (url) =>
      fetch(url, { method: "POST", body: new URLSearchParams(), credentials: "same-origin" }),
    go: (url) => window.location.assign(url),
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

let current: MarkerPage | undefined;
let listening = false;

/** For the login page's submit listener: the marker's answer to a sign-in attempt. */
export function signInStarted(): void {
  if (current) markerOnSignIn(current, browserEnvironment());
}

/** The login page's links that lead to a different login carry this attribute. */
const differentLoginAttribute = "data-exit";

/**
 * Entry point for the login page (dynamically imported): applies the marker for the shown flow
 * and, once per page, watches clicks on the "different login" links.
 */
export function watchMarker(page: MarkerPage): void {
  const env = browserEnvironment();
  current = page;
  markerOnShow(page, env);
  if (listening) return;
  listening = true;
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const link = target?.closest(`[${differentLoginAttribute}]`);
    if (!link || !current || event.defaultPrevented) return;
    if (markerOnDifferentLogin(current, env)) event.preventDefault();
  });
}
