/**
 * The pages the identity service knows by locale-less URLs (<ui>/login?flow=…, <ui>/settings?flow=…);
 * the portal serves them under /:lang.
 */
export const portalPages = [
  "login",
  "registration",
  "recovery",
  "verification",
  "settings",
  "error",
  "logout",
  "consent",
] as const;

export type PortalPage = (typeof portalPages)[number];

export function isPortalPage(value: string): value is PortalPage {
  return portalPages.some((page) => page === value);
}
