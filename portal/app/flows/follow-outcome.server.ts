import { portalDestination } from "../http/portal-destination.server.ts";
import { redirectWithCookies } from "../http/redirects.server.ts";
import type { Locale } from "../i18n/locales.ts";
import type { FlowShape, IdentityOutcome, RestartReason } from "./identity-outcome.ts";

export type FlowPage = "login" | "registration" | "recovery" | "verification" | "settings";

/** Where the outcome happened: which screen, at which step, and the URL the browser is on. */
export interface FlowRoute {
  locale: Locale;
  page: FlowPage;
  url: URL;
  /** Query parameters a fresh flow must inherit (return_to, refresh, aal, login_challenge …). */
  keep: readonly string[];
  phase: "create" | "fetch" | "submit";
  /** Absolute URL a login this outcome asks for should return to (settings needs a session). */
  returnAfterLogin?: string;
}

export type FollowResult =
  | { type: "redirect"; response: Response }
  | { type: "render"; flow: FlowShape; status: number }
  | { type: "success"; body: unknown }
  | { type: "error"; status: number; errorId: string | undefined };

/** Marks a restarted flow, so the page can say why and a failing restart cannot loop. */
export const noticeParam = "notice";

/** Tells the login page that it asks again because a change needs a recent sign-in. */
export const refreshNotice = "refresh";

/**
 * The single place that turns an identity-service outcome into a browser response, for every
 * screen. continue_with and redirect_browser_to are always followed.
 */
export function followOutcome(
  outcome: IdentityOutcome,
  route: FlowRoute,
  setCookies: readonly string[],
): FollowResult {
  const go = (to: string, document = false): FollowResult => ({
    type: "redirect",
    response: redirectWithCookies(to, setCookies, { document }),
  });
  const { locale } = route;
  const goToUrl = (url: string, notice?: string): FollowResult => {
    const destination = portalDestination(url, locale);
    if (notice === undefined || destination.document)
      return go(destination.to, destination.document);
    const separator = destination.to.includes("?") ? "&" : "?";
    return go(`${destination.to}${separator}${noticeParam}=${notice}`);
  };

  switch (outcome.kind) {
    case "flow":
      return { type: "render", flow: outcome.flow, status: outcome.status };
    case "continue": {
      const { target } = outcome;
      // Our own page for the flow, unless the identity service placed it on another origin.
      if (
        "page" in target &&
        (target.url === undefined || !portalDestination(target.url, locale).document)
      ) {
        return go(`/${locale}/${target.page}?flow=${encodeURIComponent(target.flowId)}`);
      }
      return goToUrl(target.url ?? "");
    }
    case "redirect":
      return goToUrl(outcome.url, outcome.refresh ? refreshNotice : undefined);
    case "use-flow":
      return go(flowPageUrl(route, { flow: outcome.flowId }));
    case "verify-address": {
      const returnTo = route.url.searchParams.get("return_to");
      const search = returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : "";
      return go(`/${locale}/verification${search}`);
    }
    case "restart":
      return restart(route, outcome.reason, go);
    case "session-already-available": {
      const state = route.url.searchParams.get("redirect-state");
      return go(`/${locale}${state ? `?redirect-state=${encodeURIComponent(state)}` : ""}`);
    }
    case "needs-login": {
      const query = new URLSearchParams();
      if (outcome.refresh) query.set("refresh", "true");
      if (outcome.aal2) query.set("aal", "aal2");
      if (route.returnAfterLogin) query.set("return_to", route.returnAfterLogin);
      if (outcome.refresh) query.set(noticeParam, refreshNotice);
      const search = query.size > 0 ? `?${query.toString()}` : "";
      return go(`/${locale}/login${search}`);
    }
    case "success":
      return { type: "success", body: outcome.body };
    case "unknown":
      // A bad or unknown flow id on fetch is answered 400/404: start over instead of failing.
      if (route.phase === "fetch" && outcome.status === 400) {
        return restart(route, "not-found", go);
      }
      return { type: "error", status: outcome.status, errorId: outcome.errorId };
  }
}

function restart(
  route: FlowRoute,
  reason: RestartReason,
  go: (to: string) => FollowResult,
): FollowResult {
  // A flow that cannot even be created, or fails again right after a restart for the same
  // reason (e.g. the browser refuses cookies), must become an error, not a redirect loop.
  if (route.phase === "create" || route.url.searchParams.get(noticeParam) === reason) {
    return { type: "error", status: 400, errorId: reason };
  }
  const drop = reason === "return-to-forbidden" ? ["return_to"] : [];
  return go(flowPageUrl(route, { [noticeParam]: reason }, drop));
}

/** This screen's URL with the inherited parameters plus `extra`. */
export function flowPageUrl(
  route: FlowRoute,
  extra: Record<string, string>,
  drop: readonly string[] = [],
): string {
  const query = new URLSearchParams();
  for (const name of route.keep) {
    const value = route.url.searchParams.get(name);
    if (value !== null && !drop.includes(name)) query.set(name, value);
  }
  for (const [name, value] of Object.entries(extra)) query.set(name, value);
  const search = query.size > 0 ? `?${query.toString()}` : "";
  return `/${route.locale}/${route.page}${search}`;
}
