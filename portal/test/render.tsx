import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { createRoutesStub } from "react-router";
import en from "../app/i18n/en.json";
import es from "../app/i18n/es.json";
import type { Locale } from "../app/i18n/locales.ts";
import { createTranslator } from "../app/i18n/translator.ts";
import { TranslatorProvider } from "../app/i18n/translator-context.tsx";

/**
 * Renders UI inside a memory router at `path` with the locale's real catalogue, so components
 * that use <Form>, <Link> or the translator behave as on the page.
 */
export function renderInPortal(
  ui: () => ReactNode,
  options: { path?: string; url?: string; locale?: Locale } = {},
) {
  const locale = options.locale ?? "en";
  const translator = createTranslator(locale, locale === "en" ? en : es);
  const path = options.path ?? "/:lang/login";
  const Stub = createRoutesStub([
    {
      path,
      Component: () => <TranslatorProvider translator={translator}>{ui()}</TranslatorProvider>,
      action: () => null,
    },
  ]);
  return render(<Stub initialEntries={[options.url ?? `/${locale}/login?flow=f1`]} />);
}
