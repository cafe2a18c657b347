import englishUrl from "./en.json?url&no-inline";
import spanishUrl from "./es.json?url&no-inline";
import { createCatalogueLoader } from "./catalogue-loader.ts";
import type { Locale } from "./locales.ts";
import type { Catalogue } from "./translator.ts";

/**
 * Catalogues as static, content-hashed files, read in the browser on demand with the spec's
 * limits: never part of another language's page.
 */
const catalogueUrls: Readonly<Record<Locale, string>> = { en: englishUrl, es: spanishUrl };

const loader = createCatalogueLoader((url) => fetch(url, { credentials: "same-origin" }));

export function readCatalogue(locale: Locale): Promise<Catalogue> {
  return loader.load(catalogueUrls[locale]);
}
