export const locales = ["en", "es"] as const;

export type Locale = (typeof locales)[number];

export const defaultLocale: Locale = "en";

export function isLocale(value: unknown): value is Locale {
  return locales.some((locale) => locale === value);
}

/**
 * The locale of a /:lang route. Every loader under /:lang calls this, because loaders run in
 * parallel: a child must not start a login flow for /fr/login while its layout answers 404.
 */
export function localeOf(params: { lang?: string }): Locale {
  if (!isLocale(params.lang)) throw new Response(null, { status: 404 });
  return params.lang;
}
