import type { Locale } from "../../../i18n/locales.ts";
import { useHydrated } from "../../../flows/use-hydrated.ts";

/** Spec §9: en-US long dates with a 12-hour clock; Spanish in its own usual form. */
const intlLocales: Record<Locale, string> = { en: "en-US", es: "es-ES" };

/**
 * "June 5, 2026 at 3:04 PM UTC" / "5 de junio de 2026, 15:04 UTC"; undefined for a value that
 * is no time. The zone is always named, as the server and the browser may format in different
 * ones.
 */
export function formatTimestamp(
  value: string,
  locale: Locale,
  timeZone?: string,
): string | undefined {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return undefined;
  return new Intl.DateTimeFormat(intlLocales[locale], {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    hour12: locale === "en" ? true : undefined,
    timeZone,
    timeZoneName: "short",
  }).format(time);
}

/**
 * Formats in UTC until the page is hydrated (so the server's HTML and the first browser render
 * agree), then in the browser's own time zone.
 */
export function useTimestampFormatter(locale: Locale): (value: string) => string | undefined {
  const hydrated = useHydrated();
  return (value) => formatTimestamp(value, locale, hydrated ? undefined : "UTC");
}
