import { readIdentityAnswer, readIdentityResponse } from "@portal/client";
import { data, redirect } from "react-router";
import type { RouterContextProvider } from "react-router";
import { getConfig } from "../config.server.ts";
import { browserFacingUrl } from "../http/browser-facing-url.server.ts";
import { isCrossSitePost } from "../http/cross-site-post.server.ts";
import { identityFor } from "../http/identity.server.ts";
import { redirectWithCookies } from "../http/redirects.server.ts";
import type { Locale } from "../i18n/locales.ts";
import { forgetAccount } from "../session/remembered-account.server.ts";
import { afterSignOut } from "./logout-destination.ts";
import { carriedFields } from "./logout-fields.ts";

/**
 * Signing out of the portal (not an application's RP-initiated logout: logout-challenge).
 *
 * The identity service signs out with a GET of its logout URL, whose token only a request with
 * the browser's cookies obtains; the portal must not hand one out to any page that makes the
 * browser open /logout. So a GET of /logout never signs out, whoever links to it (another site,
 * a same-origin image such as a client's logo_uri, a flow's return_to behind a "Cancel" link):
 * it asks first, with a form that posts the same fields. Only a POST the browser marks as the
 * portal's own (cross-site-post) signs out: the header's and settings' sign-out forms, "Use
 * another account", the login page's "Use a different account", the idle timeout's "Sign out".
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

/** GET /logout: asks first (a POST of the question's form signs out); no session, straight on. */
export async function loadSignOut(
  args: SignOutArgs,
  url: URL,
): Promise<Response | SignOutConfirmation> {
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
