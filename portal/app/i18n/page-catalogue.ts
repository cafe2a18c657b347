import { useParams } from "react-router";
import { isLocale } from "./locales.ts";
import type { Locale } from "./locales.ts";
import type { Catalogue } from "./translator.ts";

/** Catalogues this browser holds: the page's own, and others read on demand. */
const held = new Map<string | undefined, Catalogue>();

export function heldCatalogue(locale: string | undefined): Catalogue | undefined {
  return held.get(locale);
}

export function holdCatalogue(locale: Locale, catalogue: Catalogue): void {
  held.set(locale, catalogue);
}

/**
 * The language and catalogue to show: the URL's language, from the root loader's data, or
 * (when the language was switched in the browser and the root loader was not asked again, see
 * root's shouldRevalidate) from a catalogue read on demand.
 */
export function usePageCatalogue<Data extends { locale: Locale; messages: Catalogue }>(
  data: Data | undefined,
): { locale: Locale; messages: Catalogue } | undefined {
  const { lang } = useParams();
  if (data) held.set(data.locale, data.messages);
  const other = held.get(lang);
  return isLocale(lang) && lang !== data?.locale && other
    ? { locale: lang, messages: other }
    : data;
}
