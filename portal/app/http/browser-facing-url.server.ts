import { getConfig } from "../config.server.ts";

/**
 * An identity service whose base URL is its internal address hands out URLs the browser cannot
 * reach; such URLs are moved onto the portal's /api/kratos proxy. Others pass unchanged.
 */
export function browserFacingUrl(url: string): string {
  const { identityPublicUrl, identityBrowserUrl } = getConfig();
  return url.startsWith(`${identityPublicUrl}/`)
    ? identityBrowserUrl + url.slice(identityPublicUrl.length)
    : url;
}
