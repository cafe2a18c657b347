import { Suspense, lazy, useMemo, useState } from "react";
import type { ReactNode } from "react";
import {
  Links,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteLoaderData,
} from "react-router";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/root";
import appStylesHref from "./app.css?url";
import { getConfig } from "./config.server.ts";
import { rateLimitOf } from "./flows/rate-limit-answer.ts";
import { RateLimitedPage } from "./flows/rate-limited-page.tsx";
import { StartingPage } from "./flows/starting-page.tsx";
import { readCookie } from "./http/cookies.server.ts";
import { detectLocale } from "./i18n/detect-locale.server.ts";
import { isLocale } from "./i18n/locales.ts";
import { createTranslator, type MessageKey } from "./i18n/translator.ts";
import { ensureCatalogue, heldCatalogue, usePageCatalogue } from "./i18n/page-catalogue.ts";
import { TranslatorProvider, useTranslator } from "./i18n/translator-context.tsx";
import { defaultTheme, isTheme, themeCookie, themeCookieName } from "./theme/theme.ts";
import type { Theme } from "./theme/theme.ts";
import { ThemeContext } from "./theme/theme-context.tsx";
import { AppShell } from "./ui/app-shell.tsx";
import { Card } from "./ui/card.tsx";
import { RouteFocus } from "./ui/route-focus.tsx";
import { useIdle } from "./ui/use-idle.ts";

/**
 * The session lifecycle (whoami check, fingerprint, idle timer) renders nothing on the server
 * nor during hydration, so its code loads once the browser is idle after hydration, apart from
 * the page's own scripts: nothing of it stands between the page and a form that takes typing.
 * A failed download leaves the page as it is.
 */
const SessionLifecycle = lazy(() =>
  import("./session/session-lifecycle.tsx").then(
    (module) => ({ default: module.SessionLifecycle }),
    (error: unknown) => {
      console.warn(error);
      return { default: () => null };
    },
  ),
);

export function loader({ request, params }: Route.LoaderArgs) {
  const config = getConfig();
  const locale = isLocale(params.lang) ? params.lang : detectLocale(request);
  const theme = readCookie(request, themeCookieName);
  return {
    locale,
    theme: isTheme(theme) ? theme : defaultTheme,
    cookieDomain: config.cookieDomain,
    session: config.session,
    links: {
      ssoPortalUrl: config.ssoPortalUrl,
      supportUrl: config.supportUrl,
      year: new Date().getUTCFullYear(),
    },
  };
}

/**
 * The page carries only the strings it rendered (i18n/page-catalogue.ts): before a navigation or
 * a submission, whose answer may show any text, the browser reads the language's whole catalogue
 * (a static, content-hashed file: once per language). A failed read does not stop the navigation.
 */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  async ({ params }, next) => {
    const lang = params.lang;
    if (isLocale(lang)) await ensureCatalogue(lang).catch((error: unknown) => console.warn(error));
    return next();
  },
];

/**
 * Nothing in the root's data changes with a navigation but the language, which the URL gives;
 * ask again only on a language switch when the browser does not hold that catalogue.
 */
export function shouldRevalidate({ currentParams, nextParams }: ShouldRevalidateFunctionArgs) {
  return currentParams.lang !== nextParams.lang && !heldCatalogue(nextParams.lang);
}

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: appStylesHref },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

type RootData = Awaited<ReturnType<typeof loader>>;

export function Layout(props: { children: ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  const page = usePageCatalogue(data?.locale);
  const [theme, setThemeState] = useState<Theme>(data?.theme ?? defaultTheme);
  const cookieDomain = data?.cookieDomain;
  const setTheme = (next: Theme) => {
    setThemeState(next);
    document.cookie = themeCookie(next, cookieDomain, window.location.protocol === "https:");
  };
  return (
    <html lang={page.locale} className={theme === "dark" ? "dark" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* No <Meta />: no route exports `meta` (pages render their own <title>), and React
            Router's component would cost every page ~0.5 kB gzip (DESIGN §6 budget). */}
        <Links />
      </head>
      <body className="antialiased">
        <ThemeContext value={{ theme, setTheme, cookieDomain }}>{props.children}</ThemeContext>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { locale, messages, onMiss } = usePageCatalogue(loaderData.locale);
  const translator = useMemo(
    () => createTranslator(locale, messages, onMiss),
    [locale, messages, onMiss],
  );
  const idle = useIdle();
  return (
    <TranslatorProvider translator={translator}>
      <AppShell links={loaderData.links}>
        <Outlet />
      </AppShell>
      <RouteFocus />
      {idle && (
        <Suspense fallback={null}>
          <SessionLifecycle settings={loaderData.session} />
        </Suspense>
      )}
    </TranslatorProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<RootData>("root");
  const page = usePageCatalogue(data?.locale);
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A client navigation's `.data` request got the server's 503 starting page (identity down).
  const starting = isRouteErrorResponse(error) && error.status === 503;
  if (!data) {
    // The root loader itself failed: there is no catalogue to translate with.
    return (
      <main className="p-8">
        <h1 className="text-2xl font-semibold">Something went wrong</h1>
      </main>
    );
  }
  // The identity service answered 429 (http/rate-limited.server.ts): say how long to wait.
  const limited = rateLimitOf(error);
  return (
    <TranslatorProvider translator={createTranslator(page.locale, page.messages, page.onMiss)}>
      <AppShell links={data.links}>
        {limited ? (
          <RateLimitedPage limited={limited} />
        ) : notFound ? (
          <ErrorCard title="notFound.title" body="notFound.body" link="notFound.home" />
        ) : starting ? (
          <StartingPage />
        ) : (
          <ErrorCard title="error.title" body="error.body" link="error.goBack" />
        )}
      </AppShell>
    </TranslatorProvider>
  );
}

/** A page that cannot be shown: its title, why, and a link to the start page. */
function ErrorCard(props: { title: MessageKey; body: MessageKey; link: MessageKey }) {
  const { t, locale } = useTranslator();
  return (
    <Card>
      <title>{t(props.title)}</title>
      <h1 className="text-2xl font-semibold">{t(props.title)}</h1>
      <p className="mt-2">{t(props.body)}</p>
      <a
        href={`/${locale}`}
        className="mt-6 inline-block text-blue-700 underline dark:text-blue-300"
      >
        {t(props.link)}
      </a>
    </Card>
  );
}
