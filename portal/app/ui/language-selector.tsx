import { Link, useLocation } from "react-router";
import { useTranslator } from "../i18n/translator-context.tsx";
import { isLocale, locales } from "../i18n/locales.ts";
import { heldCatalogue, holdCatalogue } from "../i18n/page-catalogue.ts";
import type { Locale } from "../i18n/locales.ts";

/** The same page in another language: the first path segment swapped, the query kept. */
export function localizedPath(pathname: string, search: string, locale: Locale): string {
  const [, first = "", ...rest] = pathname.split("/");
  const tail = isLocale(first) ? rest : first === "" ? [] : [first, ...rest];
  return `/${[locale, ...tail].join("/")}${search}`;
}

/**
 * Reads another language's catalogue as soon as the user heads for its link, so switching needs
 * no catalogue from the server (root's shouldRevalidate); a failed read leaves that to it.
 */
function readAhead(locale: Locale) {
  if (heldCatalogue(locale)) return;
  import("../i18n/catalogue-reads.ts")
    .then((reads) => reads.readCatalogue(locale))
    .then((catalogue) => holdCatalogue(locale, catalogue))
    .catch(() => undefined);
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
              onPointerEnter={() => readAhead(locale)}
              onFocus={() => readAhead(locale)}
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
