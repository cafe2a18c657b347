import { redirect, redirectDocument } from "react-router";
import { setCookieHeaders } from "./cookies.server.ts";
import { safeLocation } from "./safe-location.server.ts";

/**
 * A redirect that carries the identity service's cookies to the browser. Targets outside the
 * portal's own routes (the identity proxy, the SSO portal, URLs the identity service chose)
 * need a full document load, or client-side navigation would look for a portal route.
 * The Location is what safeLocation makes of `to`: a portal path that cannot turn
 * protocol-relative, or a URL on an allowed origin; anything else goes to the start page.
 */
export function redirectWithCookies(
  to: string,
  setCookies: readonly string[] = [],
  options: { document?: boolean } = {},
): Response {
  const init = { headers: setCookieHeaders(setCookies) };
  const location = safeLocation(to);
  if (location === undefined) return redirect("/", init);
  return options.document ? redirectDocument(location, init) : redirect(location, init);
}
