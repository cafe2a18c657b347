import type { FastifyInstance } from "fastify";
import type { ServerResponse } from "node:http";

// Headers every answer of the identity and OAuth2 listeners carries. Their answers hold sessions,
// session tokens, flows with CSRF tokens, TOTP secrets and backup codes, challenges and tokens:
// no cache (a shared proxy or the browser's back button) may keep one.

/** Kratos' NoCache value (Kratos sets it on every GET; here on every method). */
const noCacheHeaders = {
  "cache-control": "private, no-cache, no-store, must-revalidate",
  pragma: "no-cache",
} as const;

/**
 * No API answer or page here needs a powerful browser feature; denying them means a page that
 * ever got script injected still cannot reach a camera, a microphone or the location. Only
 * features every current Chromium recognises (unknown names print console warnings).
 */
const permissionsPolicy =
  "accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), hid=(), " +
  "magnetometer=(), microphone=(), midi=(), payment=(), serial=(), usb=(), browsing-topics=()";

export const baseSecurityHeaders = {
  ...noCacheHeaders,
  "x-content-type-options": "nosniff",
  "permissions-policy": permissionsPolicy,
} as const;

/** Sets the base headers on a raw response before any handler runs (handlers may override). */
export function setBaseSecurityHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(baseSecurityHeaders)) res.setHeader(name, value);
}

/** The base headers on every answer of a Fastify listener, errors and 404s included. */
export function registerBaseSecurityHeaders(app: FastifyInstance): void {
  // Callback style: an async hook costs a promise per request.
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(baseSecurityHeaders);
    done();
  });
}
