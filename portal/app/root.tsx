import { Suspense, lazy, useMemo, useState } from "react";
import type { ReactNode } from "react";
import { Links, Outlet, ScrollRestoration, useRouteLoaderData } from "react-router";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/root";
import appStylesHref from "./app.css?url";
import { getConfig } from "./config.server.ts";
import { readCookie } from "./http/cookies.server.ts";
import { detectLocale } from "./i18n/detect-locale.server.ts";
import { isLocale } from "./i18n/locales.ts";
import { createTranslator } from "./i18n/translator.ts";
import { ensureCatalogue, heldCatalogue, usePageCatalogue } from "./i18n/page-catalogue.ts";
import { TranslatorProvider } from "./i18n/translator-context.tsx";
import { defaultTheme, isTheme, themeCookie, themeCookieName } from "./theme/theme.ts";
import type { Theme } from "./theme/theme.ts";
import { ThemeContext } from "./theme/theme-context.tsx";
import { AppShell } from "./ui/app-shell.tsx";
import { PageScripts } from "./ui/page-scripts.tsx";
import { RouteFocus } from "./ui/route-focus.tsx";
import { useFirstInteraction } from "./ui/first-interaction.ts";
import { useIdle } from "./ui/use-idle.ts";

/**
 * The session lifecycle (whoami check, fingerprint, idle timer) renders nothing on the server
 * nor during hydration, so its code loads once the browser is idle after hydration, apart from
 * the page's own scripts: nothing of it stands between the page and a form that takes typing.
 * Where the language layout found no session, only the fingerprint has work, and only before
 * a submission: there it loads on the person's first interaction (ui/first-interaction.ts), so
 * a sign-in page nobody has touched yet stays within DESIGN §6's budget.
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

type ErrorPagesModule = typeof import("./ui/error-page-body.tsx");
const loadErrorPages = () => import("./ui/error-page-body.tsx");
let serverErrorPages: ErrorPagesModule | undefined;
// The server holds the module before its first request: a boundary that suspended there would
// be streamed after the shell, hidden until a script shows it, so never with JavaScript off.
if (import.meta.env.SSR) void loadErrorPages().then((module) => (serverErrorPages = module));

/**
 * The error pages (rate-limited, not found, starting, something went wrong) load only when a
 * page fails (DESIGN §6 budget). On the server the held module is handed over as an already
 * settled thenable, which lazy() renders at once, in the shell.
 */
const ErrorPageBody = lazy(() => {
  const held = serverErrorPages;
  if (held) return settled({ default: held.ErrorPageBody });
  return loadErrorPages().then((module) => ({ default: module.ErrorPageBody }));
});

/** A thenable already fulfilled with `value`: lazy() reads it at once, without suspending. */
function settled<T>(value: T): Promise<T> {
  const thenable = { then: (onFulfilled: (value: T) => unknown) => onFulfilled(value) };
  return thenable as unknown as Promise<T>;
}

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

/**
 * The stylesheet has a precedence, so React writes it first in the head, before the tags it
 * hoists there (the favicon, the title, the scripts' modulepreloads): the browser asks for what
 * the first paint needs first, where it would otherwise be the eighth request, waiting for one of
 * HTTP/1.1's six connections.
 */
export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: appStylesHref, precedence: "stylesheet" },
  // No type: browsers read it from the answer (image/svg+xml), and every page carries these bytes.
  { rel: "icon", href: "/favicon.svg" },
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
        <PageScripts />
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
  const interacted = useFirstInteraction();
  const signedOut =
    useRouteLoaderData<{ signedIn?: boolean }>("routes/locale-layout")?.signedIn === false;
  return (
    <TranslatorProvider translator={translator}>
      <AppShell links={loaderData.links}>
        <Outlet />
      </AppShell>
      <RouteFocus />
      {idle && (interacted || !signedOut) && (
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
  if (!data) {
    // The root loader itself failed: there is no catalogue to translate with.
    return (
      <main className="p-8">
        <h1 className="text-2xl font-semibold">Something went wrong</h1>
      </main>
    );
  }
  return (
    <TranslatorProvider translator={createTranslator(page.locale, page.messages, page.onMiss)}>
      <AppShell links={data.links}>
        <Suspense fallback={null}>
          <ErrorPageBody error={error} />
        </Suspense>
      </AppShell>
    </TranslatorProvider>
  );
}
