import { readIdentityAnswer, readIdentityResponse } from "@portal/client";
import { data, redirect } from "react-router";
import type { RouterContextProvider } from "react-router";
import { getConfig } from "../config.server.ts";
import { browserFacingUrl } from "../http/browser-facing-url.server.ts";
import { isCrossSitePost } from "../http/cross-site-post.server.ts";
import { identityFor } from "../http/identity.server.ts";
import { redirectWithCookies } from "../http/redirects.server.ts";
import type { Locale } from "../i18n/locales.ts";
import { forgetAccount } from "./login/remembered-account.server.ts";
import { afterSignOut } from "./logout-destination.ts";
import { carriedFields } from "./logout-fields.ts";

/**
 * Signing out of the portal (not an application's RP-initiated logout: logout-challenge).
 *
 * The identity service signs out with a GET of its logout URL, whose token only a request with
 * the browser's cookies obtains; the portal must not hand one out to any page that makes the
 * browser open /logout. So only the portal's own pages sign out at once: its sign-out forms
 * (POST, same origin) and its own links ("Use another account", the lost second factor's
 * recovery, the idle timeout), which the browser marks `Sec-Fetch-Site: same-origin`. Anything
 * else (another site's link or redirect, a typed address, a browser without that header) is asked
 * first, with a form that posts the same fields.
 */

interface SignOutArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
  locale: Locale;
}

/** The page's data when the sign-out is asked first: the fields its form posts back. */
export interface SignOutConfirmation {
  confirmSignOut: true;
  fields: Record<string, string>;
}

/** Asks the identity service for a logout URL that returns to `query`'s destination, and goes. */
async function signOut(args: SignOutArgs, query: URLSearchParams | FormData): Promise<Response> {
  const config = getConfig();
  const { frontend } = identityFor(args.request, args.context);
  const next = afterSignOut(args.locale, new URLSearchParams(carriedFields(query)));
  const result = await readIdentityResponse(() =>
    frontend.createBrowserLogoutFlowRaw({ returnTo: `${config.publicUrl}${next}` }),
  );
  // The second-factor screen's note of the account goes with the session.
  const setCookies = [...result.setCookies, forgetAccount(config.publicUrl.startsWith("https:"))];
  if (!result.ok) return redirectWithCookies(next, setCookies);
  return redirectWithCookies(browserFacingUrl(result.data.logout_url), setCookies, {
    document: true,
  });
}

/** GET /logout: the portal's own link signs out; anything else is asked first. */
export async function loadSignOut(
  args: SignOutArgs,
  url: URL,
): Promise<Response | SignOutConfirmation> {
  if (args.request.headers.get("sec-fetch-site") === "same-origin") {
    return signOut(args, url.searchParams);
  }
  const fields = carriedFields(url.searchParams);
  // Nobody to sign out (whoami 401): straight on, as a sign-out without a session does.
  const { frontend } = identityFor(args.request, args.context);
  const whoami = await readIdentityAnswer(() => frontend.toSessionRaw({}));
  if (whoami.status === 401) {
    return redirect(afterSignOut(args.locale, new URLSearchParams(fields)));
  }
  return { confirmSignOut: true, fields };
}

/** POST /logout without a logout challenge: the portal's sign-out forms; other sites refused. */
export async function submitSignOut(args: SignOutArgs, form: FormData) {
  if (isCrossSitePost(args.request, getConfig().publicUrl)) {
    // The page then asks, as for another site's link (its loader sees the same headers).
    return data(null, { status: 403 });
  }
  return signOut(args, form);
}
