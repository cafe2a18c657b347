export const supportedLocales = ["en", "es"] as const;
export type Locale = (typeof supportedLocales)[number];
const defaultLocale: Locale = "en";

function isLocale(value: string): value is Locale {
  return (supportedLocales as readonly string[]).includes(value);
}

/**
 * The language for e-mails and text messages, from an Accept-Language header: the supported
 * language with the highest quality (ties keep header order), matched by primary subtag, so
 * "es-MX" means Spanish. Anything else falls back to English.
 */
export function localeFromAcceptLanguage(header: string | undefined): Locale {
  if (!header) return defaultLocale;
  let best: { locale: Locale; q: number } | undefined;
  for (const part of header.split(",")) {
    const [tag = "", ...params] = part.trim().split(";");
    const primary = tag.trim().toLowerCase().split("-")[0] ?? "";
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split("=").map((item) => item.trim());
      if (key === "q" && value !== undefined)
        q = Number.isFinite(Number(value)) ? Number(value) : 0;
    }
    if (q <= 0 || !isLocale(primary)) continue;
    if (!best || q > best.q) best = { locale: primary, q };
  }
  return best?.locale ?? defaultLocale;
}

/** A stored locale value, trusted only if it is one we support. */
export function asLocale(value: string | null | undefined): Locale {
  return value && isLocale(value) ? value : defaultLocale;
}
