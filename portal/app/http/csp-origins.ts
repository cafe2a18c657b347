/**
 * The origins of absolute http(s) URLs, for CSP `form-action`: a no-JS form post on a page
 * rendered for an OAuth2 challenge ends in redirects to the client's registered URIs, and
 * browsers check every hop of that chain against the page's `form-action`.
 */
export function originsOf(urls: readonly (string | undefined)[] | undefined): string[] {
  const origins = new Set<string>();
  for (const url of urls ?? []) {
    if (!url) continue;
    try {
      const parsed = new URL(url);
      if (parsed.protocol === "http:" || parsed.protocol === "https:") origins.add(parsed.origin);
    } catch {
      // Not a URL: nothing to allow.
    }
  }
  return [...origins];
}

/** The CSP directives a page may widen for the OAuth2 client it shows. */
export type WidenedDirective = "form-action" | "img-src";

/**
 * The policy with `origins` added to one directive (each once); a policy without that directive
 * is returned unchanged.
 */
export function withOrigins(
  policy: string,
  directive: WidenedDirective,
  origins: readonly string[],
): string {
  return policy
    .split(";")
    .map((entry) => {
      const parts = entry.trim().split(/\s+/);
      if (parts[0]?.toLowerCase() !== directive) return entry.trim();
      const sources = parts.slice(1).filter((source) => source !== "'none'");
      for (const origin of origins) if (!sources.includes(origin)) sources.push(origin);
      return [directive, ...sources].join(" ");
    })
    .filter((entry) => entry !== "")
    .join(";");
}

/** The parts of a Node response the widening needs (server.ts passes its ServerResponse). */
export interface PolicyHolder {
  readonly headersSent: boolean;
  getHeader(name: string): number | string | string[] | undefined;
  setHeader(name: string, value: string): unknown;
}

/**
 * Widens the Content-Security-Policy helmet already set on a response that is not sent yet
 * (loaders run before React Router writes anything).
 */
export function widenPolicy(
  response: PolicyHolder,
  directive: WidenedDirective,
  origins: readonly string[],
): void {
  const policy = response.getHeader("Content-Security-Policy");
  if (response.headersSent || typeof policy !== "string" || origins.length === 0) return;
  response.setHeader("Content-Security-Policy", withOrigins(policy, directive, origins));
}
