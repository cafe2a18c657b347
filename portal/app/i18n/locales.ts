export const locales = ["en", "es"] as const;

export type Locale = (typeof locales)[number];

export const defaultLocale: Locale = "en";

export function isLocale(value: unknown): value is Locale {
  return locales.some((locale) => locale === value);
}

/** The locale of a /:lang route (the layout loader has already answered 404 for others). */
export function localeOf(params: { lang?: string }): Locale {
  return isLocale(params.lang) ? params.lang : defaultLocale;
}
