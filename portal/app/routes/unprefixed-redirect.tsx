import { redirect } from "react-router";
import type { Route } from "./+types/unprefixed-redirect";
import { detectLocale } from "../i18n/detect-locale.server.ts";

/** /login?flow=… (where the identity service sends browsers) → /{locale}/login?flow=… */
export function loader({ request, url }: Route.LoaderArgs) {
  return redirect(`/${detectLocale(request)}${url.pathname}${url.search}`);
}

/** Never rendered: the loader always redirects or throws. Being a UI route keeps 404s as HTML pages. */
export default function Redirecting() {
  return null;
}
