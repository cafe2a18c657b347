import { readIdentityAnswer } from "@portal/client";
import { Outlet, data } from "react-router";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/locale-layout";
import { readCookie } from "../http/cookies.server.ts";
import { identityFor } from "../http/identity.server.ts";
import { localeCookieName } from "../i18n/detect-locale.server.ts";
import { localeOf } from "../i18n/locales.ts";
import { mayHaveSession } from "../session/session-cookie.server.ts";

const oneYearSeconds = 31_536_000;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const locale = localeOf(params);
  const layout = { signedIn: await hasSession(request, context) };
  if (readCookie(request, localeCookieName) === locale) return layout;
  // Remember the language last used, for the locale-less URLs the identity service links to.
  return data(layout, {
    headers: {
      "Set-Cookie": `${localeCookieName}=${locale}; Path=/; Max-Age=${oneYearSeconds}; SameSite=Lax`,
    },
  });
}

/**
 * Whether the browser has a session, for the header's sign-out control: whoami answers 200, or
 * 403 for a session still missing its second factor (which can be signed out of too). An
 * unreachable identity service shows no control rather than failing every page.
 */
async function hasSession(
  request: Request,
  context: Route.LoaderArgs["context"],
): Promise<boolean> {
  if (!mayHaveSession(request)) return false;
  try {
    const { frontend } = identityFor(request, context);
    const answer = await readIdentityAnswer(() => frontend.toSessionRaw({}));
    return answer.status === 200 || answer.status === 403;
  } catch {
    return false;
  }
}

/**
 * The header follows the session: read again after every post and on every move to another
 * page; not when only the query changes (the second factor's method links switch in place).
 */
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  if (args.formMethod !== undefined && args.formMethod.toUpperCase() !== "GET") {
    return args.defaultShouldRevalidate;
  }
  return args.currentUrl.pathname !== args.nextUrl.pathname;
}

export default function LocaleLayout() {
  return <Outlet />;
}
