import en from "./en.json";
import es from "./es.json";
import type { Catalogue } from "./translator.ts";
import type { Locale } from "./locales.ts";

const catalogues: Record<Locale, Catalogue> = { en, es };

/** The server renders with the whole catalogue; the browser gets the strings a page used (page-strings.server.ts). */
export function catalogueFor(locale: Locale): Catalogue {
  return catalogues[locale];
}
