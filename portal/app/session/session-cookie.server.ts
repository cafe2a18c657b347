import { entropyCookieName } from "./use-fingerprint.ts";

/**
 * Whether the request may carry a session: a non-empty cookie named like one (Kratos'
 * `ory_kratos_session`, the embedded server's too, Ory Network's `ory_session_<slug>`, a renamed
 * one: the rule `sessionCookieIn` uses), not the portal's own fingerprint cookie. Without one the
 * identity service would answer whoami 401, so the call is not made (a signed-out page view
 * costs the flow's call only).
 */
export function mayHaveSession(request: Request): boolean {
  const header = request.headers.get("cookie");
  if (!header) return false;
  return header.split(";").some((pair) => {
    const separator = pair.indexOf("=");
    if (separator <= 0) return false;
    const name = pair.slice(0, separator).trim();
    return (
      /session/i.test(name) && name !== entropyCookieName && pair.slice(separator + 1).trim() !== ""
    );
  });
}
