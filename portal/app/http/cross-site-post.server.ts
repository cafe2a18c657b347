/**
 * Whether a form post was sent by another site. React Router checks the Origin of posts to routes
 * with a page, but not of resource routes (POST /theme), so those call this themselves.
 *
 * The browser's own verdict comes first: Sec-Fetch-Site (which pages cannot forge) is
 * `same-origin`, `none` (typed by the user), `same-site` or `cross-site`. A sibling origin on the
 * same site (the agency product on another port, another subdomain) is another application, so
 * `same-site` is refused too: only the portal's own pages post here. Browsers without it are judged by the Origin, which
 * must then be the portal's own (`null`, sent from sandboxed or privacy-restricted contexts, is
 * refused as React Router refuses it). A post with neither header is no browser's cross-site post.
 */
export function isCrossSitePost(request: Request, publicOrigin: string): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site !== "same-origin" && site !== "none";
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  // The browser-facing origin, or the request's own when the portal is reached directly.
  return origin !== new URL(publicOrigin).origin && origin !== new URL(request.url).origin;
}
