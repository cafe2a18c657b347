import type { Route } from "./+types/root-index";
import { redirect } from "react-router";
import { detectLocale } from "../i18n/detect-locale.server.ts";
import { decideHome } from "../session/home-destination.server.ts";

/** `/` has no locale segment: pick one, then run the start page's logic. */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const locale = detectLocale(request);
  const decision = await decideHome(request, context, locale, url);
  if (decision.kind === "redirect") return decision.response;
  return redirect(`/${locale}${url.search}`);
}

/** Never rendered: the loader always redirects or throws. Being a UI route keeps 404s as HTML pages. */
export default function Redirecting() {
  return null;
}
