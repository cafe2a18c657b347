export const defaultReturnPath = "/agency-selection";

/**
 * The path to come back to after sign-in, or undefined unless `value` is a path on this app.
 * Resolving against the public URL and comparing origins catches `//evil`, `/\evil`, `http:…`
 * and other ways of leaving the site that a prefix check misses. The result is checked again:
 * resolving removes dot segments, so `/.//evil.example` becomes the path `//evil.example`, which
 * a browser reads as another host once it is sent on its own in a Location header.
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
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return staysOn(path, base) ? path : undefined;
}

/** Whether a browser on `base` following `path` as a Location stays on `base`'s origin. */
function staysOn(path: string, base: URL): boolean {
  if (!path.startsWith("/") || path.startsWith("//")) return false;
  try {
    return new URL(path, base).origin === base.origin;
  } catch {
    return false;
  }
}
