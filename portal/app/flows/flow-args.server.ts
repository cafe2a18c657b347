import type { RouterContextProvider } from "react-router";
import { identityFor } from "../http/identity.server.ts";
import type { Locale } from "../i18n/locales.ts";
import { whoamiStatus } from "./follow-outcome.server.ts";
import type { FlowPage, FlowRoute } from "./follow-outcome.server.ts";

/** What every flow page's loader and action receive from its route module. */
export interface FlowArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
  locale: Locale;
  url: URL;
}

/** A flow page's own part of its route description (see {@link FlowRoute}). */
export type FlowRouteRules = Pick<FlowRoute, "returnAfterLogin" | "sessionStatus">;

/**
 * A flow page's route, declared once by its page: which page, the query parameters a
 * replacement flow inherits from the page URL, and the page's own rules for a request.
 */
export interface FlowPageRoute {
  page: FlowPage;
  keep: readonly string[];
  rules?: (args: FlowArgs) => FlowRouteRules;
}

/** The route description of a flow page at one phase, as followOutcome needs it. */
export function flowRoute(
  args: FlowArgs,
  route: FlowPageRoute,
  phase: FlowRoute["phase"],
): FlowRoute {
  const { page, keep } = route;
  return { locale: args.locale, page, url: args.url, keep, phase, ...route.rules?.(args) };
}

/** The rules of a page for signed-out visitors: whoami says whether the browser has a session. */
export function sessionChecked(args: FlowArgs): FlowRouteRules {
  return { sessionStatus: browserSessionStatus(args) };
}

/** whoami's status with the browser's cookies, for {@link FlowRoute.sessionStatus}. */
function browserSessionStatus(args: FlowArgs): () => Promise<number> {
  return whoamiStatus(identityFor(args.request, args.context).frontend);
}
