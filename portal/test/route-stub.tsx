import { render } from "@testing-library/react";
import { Outlet, createRoutesStub } from "react-router";
import type { ActionFunction, LoaderFunction, ShouldRevalidateFunction } from "react-router";
import en from "../app/i18n/en.json";
import es from "../app/i18n/es.json";
import type { Locale } from "../app/i18n/locales.ts";
import { createTranslator } from "../app/i18n/translator.ts";
import { TranslatorProvider } from "../app/i18n/translator-context.tsx";

/** Whatever component type createRoutesStub accepts: route modules' own props included. */
type StubComponent = NonNullable<Parameters<typeof createRoutesStub>[0][number]["Component"]>;

/**
 * Mounts a route module's component in a memory router, with a stand-in loader and action
 * (the real ones talk to the identity service and are tested on their own).
 */
export function renderRoute(options: {
  path: string;
  url: string;
  Component: StubComponent;
  loader: LoaderFunction;
  action?: ActionFunction;
  /** The route module's own, where a test depends on when its loader runs again. */
  shouldRevalidate?: ShouldRevalidateFunction;
  locale?: Locale;
  /** The root route's loader data, for components that read it (useRouteLoaderData("root")). */
  rootData?: unknown;
}) {
  const locale = options.locale ?? "en";
  const translator = createTranslator(locale, locale === "en" ? en : es);
  const Stub = createRoutesStub([
    {
      path: "/",
      ...(options.rootData === undefined
        ? {}
        : { id: "root", loader: () => options.rootData, HydrateFallback: () => null }),
      Component: () => (
        <TranslatorProvider translator={translator}>
          <Outlet />
        </TranslatorProvider>
      ),
      children: [
        {
          path: options.path,
          Component: options.Component,
          loader: options.loader,
          action: options.action,
          shouldRevalidate: options.shouldRevalidate,
        },
        { path: "*", Component: () => <p>navigated away</p> },
      ],
    },
  ]);
  return render(<Stub initialEntries={[options.url]} />);
}
