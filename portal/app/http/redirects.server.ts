import { redirect, redirectDocument } from "react-router";
import { setCookieHeaders } from "./cookies.server.ts";

/**
 * A redirect that carries the identity service's cookies to the browser. Targets outside the
 * portal's own routes (the identity proxy, the SSO portal, URLs the identity service chose)
 * need a full document load, or client-side navigation would look for a portal route.
 */
export function redirectWithCookies(
  to: string,
  setCookies: readonly string[] = [],
  options: { document?: boolean } = {},
): Response {
  const init = { headers: setCookieHeaders(setCookies) };
  return options.document ? redirectDocument(to, init) : redirect(to, init);
}
