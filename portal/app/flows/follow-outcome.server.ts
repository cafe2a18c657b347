import { readIdentityAnswer } from "@portal/client";
import type { IdentityClient } from "@portal/client";
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
  /**
   * whoami's HTTP status with the browser's cookies. session_already_available depends on it
   * (spec §8); without a reader the session is taken as valid.
   */
  sessionStatus?: () => Promise<number>;
}

export type FollowResult =
  | { type: "redirect"; response: Response }
  | { type: "render"; flow: FlowShape; status: number }
  | { type: "success"; body: unknown }
  /** Nothing to follow: the page shows the toast "something went wrong" (spec §8). */
  | { type: "error"; status: number; errorId: string | undefined };

/** Marks a restarted flow, so the page can say why and a failing restart cannot loop. */
export const noticeParam = "notice";

/** Tells the login page that it asks again because a change needs a recent sign-in. */
const refreshNotice = "refresh";

/** whoami through the browser's own client, for {@link FlowRoute.sessionStatus}. */
export function whoamiStatus(frontend: IdentityClient["frontend"]): () => Promise<number> {
  return async () => (await readIdentityAnswer(() => frontend.toSessionRaw({}))).status;
}

/**
 * The single place that turns an identity-service outcome into a browser response, for every
 * screen: the flow error ids, the HTTP statuses and the per-screen rules of spec §8.
 * continue_with and redirect_browser_to are always followed.
 */
export async function followOutcome(
  outcome: IdentityOutcome,
  route: FlowRoute,
  setCookies: readonly string[],
): Promise<FollowResult> {
  const go = (to: string, document = false): FollowResult => ({
    type: "redirect",
    response: redirectWithCookies(to, setCookies, { document }),
  });
  const { locale, page, phase } = route;
  const query = route.url.searchParams;
  const goToUrl = (url: string, notice?: string): FollowResult => {
    const destination = portalDestination(url, locale);
    if (notice === undefined || destination.document)
      return go(destination.to, destination.document);
    const separator = destination.to.includes("?") ? "&" : "?";
    return go(`${destination.to}${separator}${noticeParam}=${notice}`);
  };
  const login = (parameters: Record<string, string | undefined>): FollowResult => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(parameters)) {
      if (value !== undefined) search.set(name, value);
    }
    return go(`/${locale}/login${search.size > 0 ? `?${search.toString()}` : ""}`);
  };
  // Spec §8, login update: a 400 that says "set refresh=true" starts a re-authentication.
  const refreshLogin = () => go(flowPageUrl(route, { refresh: "true" }));
  const loginSubmit = page === "login" && phase === "submit";

  switch (outcome.kind) {
    case "flow":
      if (loginSubmit && outcome.refreshHint === true) return refreshLogin();
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
      return goToUrl(outcome.url);

    case "aal2-required": {
      const returnTo = page === "settings" ? route.returnAfterLogin : undefined;
      if (outcome.url === undefined) return login({ aal: "aal2", return_to: returnTo });
      return goToUrl(withReturnTo(outcome.url, returnTo));
    }

    case "refresh-required":
      // Only settings changes need a recent sign-in; anywhere else the session is unusable.
      if (page !== "settings") return go(`/${locale}/logout`);
      if (outcome.url !== undefined) return goToUrl(outcome.url, refreshNotice);
      return login({
        refresh: "true",
        return_to: route.returnAfterLogin,
        [noticeParam]: refreshNotice,
      });

    case "use-flow":
      return go(
        flowPageUrl(route, {
          flow: outcome.flowId,
          ...(outcome.expired === true ? { [noticeParam]: "expired" } : {}),
        }),
      );

    case "verify-address": {
      const returnTo = query.get("return_to");
      const search = returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : "";
      return go(`/${locale}/verification${search}`);
    }

    case "restart":
      return restart(route, outcome.reason, go);

    case "session-already-available": {
      if (loginSubmit && outcome.refreshHint === true) return refreshLogin();
      // An OAuth2 login whose browser is signed in already continues where the flow returns to
      // (return_to passed the identity service's check before it looked at the session).
      const returnTo = query.get("return_to");
      if (page === "login" && query.get("login_challenge") && returnTo) return goToUrl(returnTo);
      const status = route.sessionStatus ? await route.sessionStatus() : 200;
      if (status >= 200 && status < 300) {
        const state = query.get("redirect-state");
        return go(`/${locale}${state ? `?redirect-state=${encodeURIComponent(state)}` : ""}`);
      }
      if (status === 403 && page === "login") {
        return go(flowPageUrl(route, { aal: "aal2" }, ["refresh"]));
      }
      return login({ refresh: "true" });
    }

    case "needs-login":
      if (page === "login") {
        if (phase !== "submit") {
          // e.g. an aal2 login asked for without a session: a plain sign-in instead.
          if (!query.has("aal") && !query.has("refresh")) {
            return { type: "error", status: 401, errorId: undefined };
          }
          return go(flowPageUrl(route, {}, ["aal", "refresh"]));
        }
        // Spec §8, login update: a second factor whose first-factor session is gone has
        // expired; a first factor that is refused is a failed sign-in.
        const secondFactor = outcome.aal1Required === true || query.get("aal") === "aal2";
        return go(
          flowPageUrl(route, secondFactor ? { [noticeParam]: "expired" } : { invalid: "true" }, [
            "aal",
            "refresh",
          ]),
        );
      }
      return login({
        refresh: outcome.inactive === true ? "true" : undefined,
        return_to: route.returnAfterLogin,
      });

    case "success":
      return { type: "success", body: outcome.body };

    case "unknown":
      return unexplained(outcome, route, go);
  }
}

/** Statuses without an error id the portal knows: the per-screen rules, else a toast. */
function unexplained(
  outcome: Extract<IdentityOutcome, { kind: "unknown" }>,
  route: FlowRoute,
  go: (to: string) => FollowResult,
): FollowResult {
  const { status, errorId } = outcome;
  if (route.page === "verification") {
    // Spec §8: a verification flow that cannot be created sends the user to the start; one
    // the identity service refuses (403) is started again.
    if (route.phase === "create" && status === 400) return go(`/${route.locale}`);
    if (route.phase !== "create" && status === 403) return go(flowPageUrl(route, {}));
  }
  if (route.phase === "fetch" && status !== 401) {
    // A bad or unknown flow id is answered 400/404: start over. Anything else unexplained on a
    // read starts over too, with "something went wrong"; the restart guard stops a loop.
    const malformed = status === 400 && (outcome.errorCode ?? 400) === 400;
    return restart(route, malformed ? "not-found" : "failed", go);
  }
  return { type: "error", status, errorId };
}

function restart(
  route: FlowRoute,
  reason: RestartReason,
  go: (to: string) => FollowResult,
): FollowResult {
  // A flow that cannot even be created, or fails again right after a restart for the same
  // reason (e.g. the browser refuses cookies), must become an error, not a redirect loop.
  // A forbidden return_to is the exception: the restart drops it, so creation can succeed.
  const createLoops = route.phase === "create" && reason !== "return-to-forbidden";
  if (createLoops || route.url.searchParams.get(noticeParam) === reason) {
    return { type: "error", status: 400, errorId: reason };
  }
  const drop = reason === "return-to-forbidden" ? ["return_to"] : [];
  return go(flowPageUrl(route, { [noticeParam]: reason }, drop));
}

/** `url` with return_to set, unless it has one or there is none to add. */
function withReturnTo(url: string, returnTo: string | undefined): string {
  if (returnTo === undefined) return url;
  try {
    const target = new URL(url);
    if (target.searchParams.has("return_to")) return url;
    target.searchParams.set("return_to", returnTo);
    return target.toString();
  } catch {
    return url;
  }
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
