import { defaultLocale, isLocale } from "./locales.ts";
import type { Locale } from "./locales.ts";
import { readCookie } from "../http/cookies.server.ts";

export const localeCookieName = "lang";

/**
 * For URLs without a locale segment. Spec order is path, html tag, cookie, navigator; on the
 * server the first two are absent, so: the `lang` cookie, then Accept-Language, then English.
 */
export function detectLocale(request: Request): Locale {
  const fromCookie = readCookie(request, localeCookieName);
  if (isLocale(fromCookie)) return fromCookie;
  return fromAcceptLanguage(request.headers.get("accept-language")) ?? defaultLocale;
}

function fromAcceptLanguage(header: string | null): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { primary: tag.split("-")[0]?.toLowerCase(), weight, index };
    })
    .filter((entry) => Number.isFinite(entry.weight) && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked.map((entry) => entry.primary).find(isLocale);
}
