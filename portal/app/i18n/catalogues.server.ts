import en from "./en.json";
import es from "./es.json";
import type { Catalogue } from "./translator.ts";
import type { Locale } from "./locales.ts";

const catalogues: Record<Locale, Catalogue> = { en, es };

/** Only the requested language is sent to the browser, inside the page's loader data. */
export function catalogueFor(locale: Locale): Catalogue {
  return catalogues[locale];
}
