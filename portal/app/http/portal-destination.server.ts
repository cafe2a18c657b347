import { getConfig } from "../config.server.ts";
import { isLocale } from "../i18n/locales.ts";
import type { Locale } from "../i18n/locales.ts";
import { isPortalPage } from "../portal-pages.ts";
import { browserFacingUrl } from "./browser-facing-url.server.ts";
import { portalPath, safeLocation } from "./safe-location.server.ts";

export interface Destination {
  to: string;
  /** Load as a whole document: the target is not one of the portal's routes. */
  document: boolean;
}

/** What the identity service's login initialiser passes on to the login flow it creates. */
const loginParameters = ["refresh", "aal", "return_to", "login_challenge"];

/**
 * Where the browser goes for a URL the identity service named. Its locale-less UI URLs
 * (<ui>/settings?flow=…) become this locale's page; its login initialiser becomes our /login
 * route with the same refresh, aal and return_to, so the page creates the flow as it always does;
 * other URLs on the portal's origin stay relative (never protocol-relative: `//evil` is no path
 * of ours), the other allowed origins are loaded as they are, and anything else — another
 * origin, `javascript:`, a URL that does not parse — is refused: this locale's start page.
 */
export function portalDestination(url: string, locale: Locale): Destination {
  const { publicUrl, identityPublicUrl, identityBrowserUrl } = getConfig();
  const refused = { to: `/${locale}`, document: false };
  let target: URL;
  try {
    target = new URL(url, publicUrl);
  } catch {
    return refused;
  }

  const loginInit = [identityPublicUrl, identityBrowserUrl].map(
    (base) => `${base}/self-service/login/browser`,
  );
  if (loginInit.includes(`${target.origin}${target.pathname.replace(/\/+$/, "")}`)) {
    const query = new URLSearchParams();
    for (const name of loginParameters) {
      const value = target.searchParams.get(name);
      if (value) query.set(name, value);
    }
    const search = query.size > 0 ? `?${query.toString()}` : "";
    return { to: `/${locale}/login${search}`, document: false };
  }

  if (target.origin !== new URL(publicUrl).origin) {
    const to = safeLocation(browserFacingUrl(url));
    return to === undefined ? refused : { to, document: true };
  }
  const rest = `${target.search}${target.hash}`;
  const segments = target.pathname.split("/").filter((segment) => segment !== "");
  const [first = "", second] = segments;
  if (segments.length === 1 && isPortalPage(first)) {
    return { to: `/${locale}/${first}${rest}`, document: false };
  }
  const ownRoute =
    segments.length === 0 || (isLocale(first) && (second === undefined || isPortalPage(second)));
  return { to: portalPath(target), document: !ownRoute };
}

/**
 * A URL on the portal's own origin as a path the browser can follow from any of its pages; one
 * on another allowed origin as its normalised absolute URL; anything else as the start page.
 */
export function relativeToPortal(url: string): string {
  return safeLocation(url) ?? "/";
}

/** This portal page as an absolute URL, for return_to parameters the identity service checks. */
export function absolutePortalUrl(path: string): string {
  return `${getConfig().publicUrl}${path}`;
}
