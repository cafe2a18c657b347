import type { RouterContextProvider } from "react-router";
import { localeOf } from "../i18n/locales.ts";
import type { FlowArgs } from "./flow-args.server.ts";
import { keepFormWhenRateLimited } from "./keep-form-when-rate-limited.server.ts";

/** What React Router hands a flow page's loader and action (its route is /:lang/<page>). */
interface RouteArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
  params: { lang?: string };
  url: URL;
}

function flowArgs({ request, context, params, url }: RouteArgs): FlowArgs {
  return { request, context, locale: localeOf(params), url };
}

/** A flow page's loader: the page's load step, in the locale of its URL. */
export function flowLoader<T>(load: (args: FlowArgs) => T) {
  return (args: RouteArgs) => load(flowArgs(args));
}

/** A flow page's action: its submit step; when rate-limited, the page keeps its form. */
export function flowAction<T>(submit: (args: FlowArgs) => Promise<T>) {
  return (args: RouteArgs) => keepFormWhenRateLimited(args.request, () => submit(flowArgs(args)));
}
