import { readIdentityResponse } from "@portal/client";
import type { Session } from "@portal/client";
import type { RouterContextProvider } from "react-router";
import { getConfig } from "../config.server.ts";
import { isRecord } from "../flows/node-guards.ts";
import { identityFor } from "../http/identity.server.ts";
import { redirectWithCookies } from "../http/redirects.server.ts";
import type { Locale } from "../i18n/locales.ts";

export type HomeDecision =
  | { kind: "redirect"; response: Response }
  /** whoami answered 403 (a second factor is pending): the spec says stay and do nothing. */
  | { kind: "stay"; setCookies: string[] };

/** Spec §2 "/": where a visitor of the start page belongs, decided from their session. */
export async function decideHome(
  request: Request,
  context: Readonly<RouterContextProvider>,
  locale: Locale,
  url: URL,
): Promise<HomeDecision> {
  const { frontend } = identityFor(request, context);
  const result = await readIdentityResponse(() => frontend.toSessionRaw({}));
  const go = (to: string, document = false): HomeDecision => ({
    kind: "redirect",
    response: redirectWithCookies(to, result.setCookies, { document }),
  });

  if (result.ok) return go(ssoDestination(result.data, url), true);
  switch (result.status) {
    case 401:
      return go(`/${locale}/login`);
    case 422:
      return go(`/${locale}/login?refresh=true`);
    case 403:
      return { kind: "stay", setCookies: result.setCookies };
    default:
      throw new Error(`whoami answered ${result.status}`);
  }
}

function ssoDestination(session: Session, url: URL): string {
  const sso = getConfig().ssoPortalUrl;
  if (url.searchParams.get("redirect-state") === "agency-selection")
    return `${sso}/agency-selection`;
  const metadata = session.identity?.metadata_public;
  const profile = isRecord(metadata) ? metadata.user_profile : undefined;
  const linkedDefault = isRecord(profile) && profile.linked === true && profile.default === true;
  return linkedDefault ? `${sso}/` : `${sso}/agency-selection`;
}
