import { getConfig } from "../config.server.ts";

/**
 * The origins the portal itself sends browsers to: its own, the identity service as browsers
 * reach it, the agency product and the OAuth2 service.
 */
function configuredOrigins(): Set<string> {
  const { publicUrl, identityBrowserUrl, ssoPortalUrl, oauth2PublicUrl } = getConfig();
  return new Set(
    [publicUrl, identityBrowserUrl, ssoPortalUrl, oauth2PublicUrl].map(
      (url) => new URL(url).origin,
    ),
  );
}

/**
 * A URL on the portal's own origin as a path a browser cannot read as another host: WHATWG
 * parsing removes dot segments and turns `\` into `/`, so `/.//evil` or `/\evil` end as the
 * path `//evil`, which alone in a Location is protocol-relative. Leading slashes are collapsed
 * into one, and the result is checked again against the portal's origin.
 */
export function portalPath(target: URL): string {
  const { publicUrl } = getConfig();
  const path = `/${target.pathname.replace(/^\/+/, "")}${target.search}${target.hash}`;
  return new URL(path, publicUrl).origin === new URL(publicUrl).origin ? path : "/";
}

/**
 * The Location to send for `to`, read the way a browser will read it (WHATWG URL parsing
 * against the portal's origin):
 * - on the portal's origin: a path that cannot turn protocol-relative (portalPath);
 * - on a configured origin: the normalised absolute URL;
 * - on any other origin: only an absolute http(s) URL already in its normalised form. Those come
 *   from the identity service (its UI or return URLs on origins the portal does not know), whose
 *   allow-list decided on them. An allow-list may read a URL differently than a browser (Kratos
 *   parses with Go's net/url, where `http://evil.example\@portal/` is the portal and `/\evil` a
 *   path), so a URL whose normal form differs from what was written is not followed there;
 * - anything else (`javascript:`, `data:`, a URL that does not parse): undefined, and the caller
 *   sends the browser somewhere of its own.
 */
export function safeLocation(to: string): string | undefined {
  const { publicUrl } = getConfig();
  let target: URL;
  try {
    target = new URL(to, `${publicUrl}/`);
  } catch {
    return undefined;
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return undefined;
  if (target.origin === new URL(publicUrl).origin) return portalPath(target);
  if (configuredOrigins().has(target.origin)) return target.href;
  return target.href === to ? to : undefined;
}
