import { holdPageStrings, pageStringsId } from "./page-catalogue.ts";
import type { PageStrings } from "./page-catalogue.ts";

/**
 * Before hydration: the strings the server rendered the page with (page-strings.server.ts), so the
 * first render in the browser matches the server's. The element goes, leaving the body as React
 * rendered it.
 */
export function readPageStrings(doc: Document): void {
  const element = doc.getElementById(pageStringsId);
  if (!element) return;
  try {
    holdPageStrings(JSON.parse(element.textContent) as PageStrings);
  } catch (error) {
    // A damaged element: the page's strings are then read from the catalogue file instead.
    console.warn(error);
  }
  element.remove();
}

/** Whether the page's strings can be read now: the element is parsed, or the document is. */
export function pageStringsReady(doc: Document): boolean {
  return doc.getElementById(pageStringsId) !== null || doc.readyState !== "loading";
}
