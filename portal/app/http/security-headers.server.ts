import { readdirSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";

// Headers helmet does not set. Every page of the portal carries a flow (with its CSRF token), a
// session's details, a TOTP secret, backup codes or a challenge, and /api/kratos answers carry
// sessions and tokens: none may be kept by a shared cache or the browser's history cache. Only the
// built static files (fingerprinted assets, the favicon) stay cacheable.

/**
 * No page needs a camera, a microphone, the location or payment; WebAuthn stays allowed for the
 * portal itself. Only features every current Chromium recognises (unknown names print console
 * warnings).
 */
const permissionsPolicy =
  "accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), hid=(), " +
  "magnetometer=(), microphone=(), midi=(), payment=(), serial=(), usb=(), browsing-topics=(), " +
  "publickey-credentials-get=(self), publickey-credentials-create=(self)";

/** Paths the static middleware answers: /assets/* and the files at the build's top level. */
function staticPaths(clientDir: URL): (path: string) => boolean {
  let topLevel: Set<string>;
  try {
    topLevel = new Set(
      readdirSync(clientDir, { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => `/${entry.name}`),
    );
  } catch {
    topLevel = new Set();
  }
  return (path) => path.startsWith("/assets/") || topLevel.has(path);
}

/** React Router's lazy route discovery (`routeDiscovery.manifestPath`, its default). */
const manifestPath = "/__manifest";

/**
 * Express middleware, first in the chain: Permissions-Policy and nosniff on everything, and
 * `Cache-Control: no-store` with `Pragma: no-cache` on everything but the static files. A later
 * handler may still set its own (the /api/kratos proxy passes the identity service's on).
 */
export function portalSecurityHeaders(clientDir: URL) {
  const isStatic = staticPaths(clientDir);
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    res.setHeader("Permissions-Policy", permissionsPolicy);
    // Helmet sets it too, but only after the /api/kratos proxy, which answers before helmet runs.
    res.setHeader("X-Content-Type-Options", "nosniff");
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    // React Router's route discovery answers the build's route table (no user data) with its own
    // one-year immutable caching, keyed by the build's version in the query: a second no-store
    // would make the browser fetch it again on every page.
    if (!isStatic(path) && path !== manifestPath) {
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Pragma", "no-cache");
    }
    next();
  };
}
