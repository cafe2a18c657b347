import { readFileSync } from "node:fs";

// The project's one table of open-redirect tricks (vendor/security/redirect-tricks.json), shared
// by the identity server's, the portal's and the demo's redirect tests.

interface TrickTable {
  tricks: { value: string; why: string }[];
}

const table = JSON.parse(
  readFileSync(new URL("../../../vendor/security/redirect-tricks.json", import.meta.url), "utf8"),
) as TrickTable;

export interface RedirectTrick {
  value: string;
  why: string;
}

/** Every trick, aimed at `origin` (the site whose redirects are tested), e.g. http://localhost:3000. */
export function redirectTricks(origin: string): RedirectTrick[] {
  const site = new URL(origin);
  return table.tricks.map(({ value, why }) => ({
    value: value
      .replaceAll("{origin}", site.origin)
      .replaceAll("{ORIGIN}", site.origin.toUpperCase())
      .replaceAll("{hostname}", site.hostname)
      .replaceAll("{host}", site.host),
    why,
  }));
}

/**
 * The origin a browser on `requestUrl` goes to for this Location, resolved by the WHATWG URL
 * parser as browsers do; undefined when a browser could not follow it.
 */
export function browserDestination(location: string, requestUrl: string): string | undefined {
  try {
    const target = new URL(location, requestUrl);
    return target.protocol === "http:" || target.protocol === "https:" ? target.origin : undefined;
  } catch {
    return undefined;
  }
}
