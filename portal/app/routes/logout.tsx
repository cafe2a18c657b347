import { readIdentityResponse } from "@portal/client";
import type { Route } from "./+types/logout";
import { getConfig } from "../config.server.ts";
import { browserFacingUrl } from "../http/browser-facing-url.server.ts";
import { redirectWithCookies } from "../http/redirects.server.ts";
import { identityFor } from "../http/identity.server.ts";
import { localeOf } from "../i18n/locales.ts";

/**
 * Sign-out link target (the SSO portal links here): ask the identity service for a logout URL
 * that returns to this locale's login page, then send the browser there.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const locale = localeOf(params);
  const config = getConfig();
  const { frontend } = identityFor(request, context);
  const result = await readIdentityResponse(() =>
    frontend.createBrowserLogoutFlowRaw({ returnTo: `${config.publicUrl}/${locale}/login` }),
  );
  if (!result.ok) return redirectWithCookies(`/${locale}/login`, result.setCookies);
  return redirectWithCookies(browserFacingUrl(result.data.logout_url), result.setCookies, {
    document: true,
  });
}

/** Never rendered: the loader always redirects. */
export default function Logout() {
  return null;
}
