import { createContext, useContext, useSyncExternalStore } from "react";
import { useParams } from "react-router";
import { isLocale } from "./locales.ts";
import type { Locale } from "./locales.ts";
import type { Catalogue } from "./translator.ts";

/**
 * Where the page's texts come from. The server renders with the whole catalogue but sends the
 * browser only the strings this render looked up (i18n/page-strings.server.ts, read before
 * hydration by entry.client); the rest of a language's catalogue is read from its static,
 * content-hashed file when the browser first needs a string it lacks, before a navigation or a
 * submission (root's clientMiddleware), or as the user heads for another language.
 */
/** The element entry.client reads the page's strings from before hydrating. */
export const pageStringsId = "page-strings";

/** What the server sends with a page: the strings its render looked up, by language. */
export interface PageStrings {
  strings: Partial<Record<Locale, Catalogue>>;
  /** Keys looked up that no catalogue has (the page shows the identity service's text). */
  absent: readonly string[];
}

interface Held {
  catalogue: Catalogue;
  /** The language's whole catalogue, not just the strings one page used. */
  complete: boolean;
}

const held = new Map<string | undefined, Held>();
/** Keys the server looked up and its catalogue lacks: no use reading the whole file for them. */
const absent = new Set<string>();
const listeners = new Set<() => void>();

function changed() {
  for (const listener of listeners) listener();
}

/** The language's whole catalogue, when this browser holds it. */
export function heldCatalogue(locale: string | undefined): Catalogue | undefined {
  const entry = held.get(locale);
  return entry?.complete ? entry.catalogue : undefined;
}

/** A whole catalogue, read from its file: replaces the page's strings of that language. */
export function holdCatalogue(locale: Locale, catalogue: Catalogue): void {
  held.set(locale, { catalogue, complete: true });
  changed();
}

/** The strings the server rendered this page with (never replaces a whole catalogue). */
export function holdPageStrings(page: PageStrings): void {
  for (const key of page.absent) absent.add(key);
  for (const [locale, catalogue] of Object.entries(page.strings)) {
    if (!isLocale(locale) || held.get(locale)?.complete) continue;
    held.set(locale, {
      catalogue: { ...held.get(locale)?.catalogue, ...catalogue },
      complete: false,
    });
  }
  changed();
}

/** Reads a language's whole catalogue once, in the browser; a failed read is tried next time. */
export async function ensureCatalogue(locale: Locale): Promise<void> {
  if (heldCatalogue(locale)) return;
  const reads = await import("./catalogue-reads.ts");
  holdCatalogue(locale, await reads.readCatalogue(locale));
}

/** The browser's first miss of a language starts reading its whole catalogue. */
function missed(locale: Locale, key: string) {
  if (typeof window === "undefined" || absent.has(key) || heldCatalogue(locale)) return;
  ensureCatalogue(locale).catch((error: unknown) => console.warn(error));
}

/** On the server: the whole catalogue of a language, noting what the render looks up. */
export const ServerCatalogues = createContext<((locale: Locale) => Catalogue) | null>(null);

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const empty: Catalogue = {};

/**
 * The language and catalogue to show: the URL's language, else the root loader's. In the browser
 * the catalogue may hold only the page's strings; a lookup it lacks starts reading the rest, and
 * the page renders again once it is there.
 */
export function usePageCatalogue(dataLocale: Locale | undefined): {
  locale: Locale;
  messages: Catalogue;
  onMiss?: (locale: Locale, key: string) => void;
} {
  const { lang } = useParams();
  const locale: Locale = isLocale(lang) ? lang : (dataLocale ?? "en");
  const server = useContext(ServerCatalogues);
  const snapshot = () => held.get(locale)?.catalogue ?? empty;
  const messages = useSyncExternalStore(subscribe, snapshot, snapshot);
  if (server) return { locale, messages: server(locale) };
  return { locale, messages, onMiss: held.get(locale)?.complete ? undefined : missed };
}
