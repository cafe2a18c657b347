import { Link, useLocation } from "react-router";
import { useTranslator } from "../i18n/translator-context.tsx";
import { isLocale, locales } from "../i18n/locales.ts";
import type { Locale } from "../i18n/locales.ts";

/** The same page in another language: the first path segment swapped, the query kept. */
export function localizedPath(pathname: string, search: string, locale: Locale): string {
  const [, first = "", ...rest] = pathname.split("/");
  const tail = isLocale(first) ? rest : first === "" ? [] : [first, ...rest];
  return `/${[locale, ...tail].join("/")}${search}`;
}

export function LanguageSelector() {
  const { t, locale: current } = useTranslator();
  const location = useLocation();
  return (
    <nav aria-label={t("layout.language")}>
      <ul className="flex gap-4">
        {locales.map((locale) => (
          <li key={locale}>
            <Link
              to={localizedPath(location.pathname, location.search, locale)}
              lang={locale}
              hrefLang={locale}
              aria-current={locale === current ? "true" : undefined}
              className="underline-offset-4 hover:underline aria-[current=true]:font-semibold aria-[current=true]:underline"
            >
              {t(`language.${locale}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
