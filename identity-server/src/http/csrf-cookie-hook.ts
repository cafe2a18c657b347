import type { FastifyInstance } from "fastify";
import type { CookieSettings } from "./cookies.ts";
import { csrfSecret } from "./csrf.ts";

// Routes Kratos exempts from its anti-CSRF middleware: API flows, submit endpoints (the strategies
// check the token themselves), session endpoints, health checks and /version
// (cmd/daemon/serve.go DisablePath; found in issue 15: /version set a csrf_token_* cookie).
const ignored = [
  /^\/self-service\/(login|registration|settings|recovery|verification)(\/api)?$/,
  /^\/self-service\/logout\/api$/,
  /^\/sessions(\/.*)?$/,
  /^\/health\//,
  /^\/version$/,
];

/**
 * Like Kratos' nosurf middleware, every other public request leaves with an anti-CSRF cookie:
 * browsers that arrive without one get a fresh secret.
 */
export function registerCsrfCookieHook(app: FastifyInstance, settings: CookieSettings): void {
  // Callback style: an async hook costs a promise per request.
  app.addHook("onRequest", (request, reply, done) => {
    const path = request.url.split("?")[0] ?? "";
    if (!ignored.some((pattern) => pattern.test(path))) csrfSecret(request, reply, settings);
    done();
  });
}
