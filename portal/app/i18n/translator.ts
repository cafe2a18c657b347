import type englishCatalogue from "./en.json";
import type { Locale } from "./locales.ts";

/** A language's strings, flat: "login.title" → "Sign in". Values may hold `{placeholders}`. */
export type Catalogue = Readonly<Record<string, string>>;

/** Keys every catalogue has; the parity test keeps es.json in step with en.json. */
export type MessageKey = keyof typeof englishCatalogue;

export type MessageParams = Readonly<Record<string, unknown>>;

export interface Translator {
  readonly locale: Locale;
  t: (key: MessageKey, params?: MessageParams) => string;
  /** For keys built at run time (Kratos message ids): undefined when the catalogue lacks it. */
  lookup: (key: string, params?: MessageParams) => string | undefined;
}

const placeholder = /\{(\w+)\}/g;

/**
 * A deliberately tiny stand-in for i18next: the page's strings arrive with the HTML, there is
 * one namespace and no plurals, so 40 lines keep ~15 kB gzip out of the sign-in page's budget.
 */
export function createTranslator(
  locale: Locale,
  catalogue: Catalogue,
  /** Told of a key the catalogue lacks: in the browser it may hold only the page's strings. */
  onMiss?: (locale: Locale, key: string) => void,
): Translator {
  const lookup = (key: string, params?: MessageParams): string | undefined => {
    const template = catalogue[key];
    if (template === undefined) onMiss?.(locale, key);
    return template === undefined ? undefined : interpolate(template, params);
  };
  return {
    locale,
    t: (key, params) => lookup(key, params) ?? key,
    lookup,
  };
}

export function interpolate(template: string, params: MessageParams = {}): string {
  return template.replace(placeholder, (match, name: string) =>
    Object.hasOwn(params, name) ? formatParam(params[name]) : match,
  );
}

export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(placeholder)].map((match) => match[1] ?? "");
}

function formatParam(value: unknown): string {
  if (Array.isArray(value)) return value.map(formatParam).join(", ");
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return value == null ? "" : JSON.stringify(value);
}
