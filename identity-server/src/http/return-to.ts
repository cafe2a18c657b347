import { badRequest, internalError } from "./errors.ts";

export interface ReturnToPolicy {
  defaultReturnUrl: string;
  allowedReturnUrls: string[];
  publicBaseUrl: string;
}

function hostAllowed(candidate: URL, allowed: URL): boolean {
  if (allowed.host.startsWith("*")) {
    return candidate.host.toLowerCase().endsWith(allowed.host.toLowerCase().slice(1));
  }
  return allowed.host.toLowerCase() === candidate.host.toLowerCase();
}

/**
 * Kratos' SecureRedirectTo: takes `returnTo` (or the `return_to` query of `sourceUrl`), fills a
 * missing scheme/host from the default and accepts it only under an allowed URL (scheme, host,
 * path prefix) or under `<public base URL>/self-service`. Without a candidate the default wins.
 * Unlike Kratos, a path starting with `//` is refused (README, differences from Ory).
 */
export function secureRedirectTo(
  policy: ReturnToPolicy,
  options: {
    returnTo?: string | undefined;
    sourceUrl?: string | undefined;
    defaultReturnUrl?: string;
  },
): string {
  const fallback = options.defaultReturnUrl ?? policy.defaultReturnUrl;
  let raw = options.returnTo ?? "";
  if (raw === "" && options.sourceUrl) {
    try {
      raw = new URL(options.sourceUrl).searchParams.get("return_to") ?? "";
    } catch {
      throw internalError(`Unable to parse the original request URL: ${options.sourceUrl}`);
    }
  }
  if (raw === "") return fallback;

  let candidate: URL;
  try {
    // A relative return_to inherits scheme and host from the default return URL.
    candidate = new URL(raw, fallback);
  } catch {
    throw badRequest(`Unable to parse the return_to query parameter as an URL: ${raw}`);
  }

  // Normalised on both sides (WHATWG parsing: case, default port, dot segments, IDNA), so the
  // comparison sees what a browser will. A path that starts with `//` is refused although the
  // host is allowed: anything that shortens the URL to its path (relative redirects, links)
  // turns it into a protocol-relative URL of another host.
  if (!candidate.pathname.startsWith("//")) {
    const allowList = [...policy.allowedReturnUrls, `${policy.publicBaseUrl}/self-service`];
    for (const entry of allowList) {
      const allowed = new URL(entry);
      if (
        allowed.protocol === candidate.protocol &&
        hostAllowed(candidate, allowed) &&
        candidate.pathname.startsWith(allowed.pathname)
      ) {
        return candidate.toString();
      }
    }
  }
  throw badRequest(
    `Requested return_to URL ${JSON.stringify(candidate.toString())} is not allowed.`,
    {
      id: "self_service_flow_return_to_forbidden",
    },
  );
}
