import { Outlet, data } from "react-router";
import type { Route } from "./+types/locale-layout";
import { readCookie } from "../http/cookies.server.ts";
import { localeCookieName } from "../i18n/detect-locale.server.ts";
import { localeOf } from "../i18n/locales.ts";

const oneYearSeconds = 31_536_000;

export function loader({ request, params }: Route.LoaderArgs) {
  const locale = localeOf(params);
  if (readCookie(request, localeCookieName) === locale) return null;
  // Remember the language last used, for the locale-less URLs the identity service links to.
  return data(null, {
    headers: {
      "Set-Cookie": `${localeCookieName}=${locale}; Path=/; Max-Age=${oneYearSeconds}; SameSite=Lax`,
    },
  });
}

export default function LocaleLayout() {
  return <Outlet />;
}
