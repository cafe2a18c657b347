export const defaultReturnPath = "/agency-selection";

/**
 * The path to come back to after sign-in, or undefined unless `value` is a path on this app.
 * Resolving against the public URL and comparing origins catches `//evil`, `/\evil`, `http:…`
 * and other ways of leaving the site that a prefix check misses.
 */
export function safeReturnPath(value: unknown, publicUrl: string): string | undefined {
  if (typeof value !== "string" || !value.startsWith("/") || value.includes("\\")) return undefined;
  // Control characters (tabs, newlines) are dropped by URL parsing and could hide a `//` prefix.
  if ([...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f))
    return undefined;
  const base = new URL(publicUrl);
  let resolved: URL;
  try {
    resolved = new URL(value, base);
  } catch {
    return undefined;
  }
  if (resolved.origin !== base.origin) return undefined;
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
