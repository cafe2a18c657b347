import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { DemoConfig } from "./config.ts";
import { stylesheet } from "./html.ts";

// The demo's pages show the signed-in person and carry the sign-out form's token: never cached,
// framed, sniffed or given powerful browser features. They load nothing and run no script; the
// one inline stylesheet is allowed by its hash.

const styleHash = createHash("sha256").update(stylesheet).digest("base64");

/**
 * Browsers check form-action along the whole redirect chain of a form post: the sign-out form
 * goes to /auth/logout, on to the OAuth2 service's end-session endpoint and from there to the
 * portal's sign-out page.
 */
function contentSecurityPolicy(config: DemoConfig): string {
  const formTargets = new Set([
    "'self'",
    new URL(config.oidc.issuer).origin,
    new URL(config.portalUrl).origin,
  ]);
  return [
    "default-src 'none'",
    `style-src 'sha256-${styleHash}'`,
    `form-action ${[...formTargets].join(" ")}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/** Same list as the identity service's (only features every current Chromium knows). */
const permissionsPolicy =
  "accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), hid=(), " +
  "magnetometer=(), microphone=(), midi=(), payment=(), serial=(), usb=(), browsing-topics=()";

export function registerSecurityHeaders(app: FastifyInstance, config: DemoConfig): void {
  const headers = {
    "content-security-policy": contentSecurityPolicy(config),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "permissions-policy": permissionsPolicy,
    // Not no-referrer: with it browsers send `Origin: null` on form posts.
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
    pragma: "no-cache",
  };
  // Callback style: an async hook costs a promise per request.
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
