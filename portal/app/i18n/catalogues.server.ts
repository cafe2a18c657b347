import en from "./en.json";
import es from "./es.json";
import type { Catalogue } from "./translator.ts";
import type { Locale } from "./locales.ts";

const catalogues: Record<Locale, Catalogue> = { en, es };

/**
 * The server renders with the whole catalogue; the browser gets only the strings a page used
 * (page-strings.server.ts) and reads the rest from the catalogue's static file when it needs it.
 */
export function catalogueFor(locale: Locale): Catalogue {
  return catalogues[locale];
}
