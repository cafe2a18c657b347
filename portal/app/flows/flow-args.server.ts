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

/** The route description of a flow page at one phase, as followOutcome needs it. */
export function flowRoute(
  args: FlowArgs,
  page: FlowPage,
  keep: readonly string[],
  phase: FlowRoute["phase"],
  rules: FlowRouteRules = {},
): FlowRoute {
  return { locale: args.locale, page, url: args.url, keep, phase, ...rules };
}

/** whoami's status with the browser's cookies, for {@link FlowRoute.sessionStatus}. */
export function browserSessionStatus(args: FlowArgs): () => Promise<number> {
  return whoamiStatus(identityFor(args.request, args.context).frontend);
}
