import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { originMatches, parseOriginPattern, type OriginPattern } from "../http/cors-origins.ts";
import { appendVary, CorsPolicy, type CorsConfig } from "../http/cors.ts";

// Hydra's `serve.public.cors` on the OAuth2 public listener. Hydra runs rs/cors in front of every
// public route and, on the token, revocation, introspection and userinfo routes, also allows the
// origins in the calling client's `allowed_cors_origins` (only while CORS is on). oidc-provider
// has CORS of its own (open on discovery and keys, per client elsewhere, 400 for a client's
// unknown origin); here it only ever contributes for a client's own origin.

/**
 * The routes Hydra wraps in its per-client CORS middleware (x/oauth2cors/cors.go, registered in
 * oauth2/handler.go and jwk/handler.go). Its origin check answers true for every OPTIONS
 * request ("pre-flight requests do not contain credentials"), so a client's own origin gets
 * through the preflight that an Authorization header or a JSON body forces, and the actual
 * request is then checked against the calling client's allowed_cors_origins.
 */
const clientCorsPaths = new Set([
  "/oauth2/token",
  "/oauth2/revoke",
  "/userinfo",
  "/.well-known/openid-configuration",
  "/.well-known/oauth-authorization-server",
  "/.well-known/jwks.json",
]);

/** The request's path; absolute-form targets (`GET http://host/path`) are routed by path too. */
function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? "/", "http://oauth2.invalid").pathname;
  } catch {
    return "";
  }
}

/** Requests whose client lists their Origin in `allowed_cors_origins` (set by clientBasedCORS). */
const clientAllowed = new WeakSet<IncomingMessage>();

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function patternsOf(origins: readonly string[]): OriginPattern[] {
  return origins.flatMap((origin) => {
    try {
      return [parseOriginPattern(origin)];
    } catch {
      // Hydra skips a client origin it cannot use rather than failing the request.
      return [];
    }
  });
}

/**
 * oidc-provider's `clientBasedCORS`: never refuses (Hydra answers such a request normally, just
 * without CORS headers), but remembers whether the client allows the origin, so that its headers
 * are kept.
 */
export function clientBasedCors(config: CorsConfig) {
  return (
    ctx: { req: IncomingMessage },
    origin: string,
    client: { allowed_cors_origins?: string[] },
  ): boolean => {
    if (config.enabled && originMatches(patternsOf(client.allowed_cors_origins ?? []), origin)) {
      clientAllowed.add(ctx.req);
    }
    return true;
  };
}

/**
 * Drops every Access-Control-* header set after this point (oidc-provider's), unless the
 * request's client allowed its origin; then credentials are allowed as Hydra's rs/cors does.
 */
function filterDownstreamHeaders(
  req: IncomingMessage,
  res: ServerResponse,
  ours: ReadonlySet<string>,
  config: CorsConfig,
): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = (...args: unknown[]) => {
    if (clientAllowed.has(req) && ours.size === 0) {
      if (config.allowCredentials) res.setHeader("access-control-allow-credentials", "true");
    } else {
      for (const name of res.getHeaderNames()) {
        if (name.startsWith("access-control-") && !ours.has(name)) res.removeHeader(name);
      }
    }
    return writeHead(...args);
  };
}

/**
 * Applies the policy to one request of the public listener. Returns true when it answered the
 * request (a preflight, 204, before any route, flow or cookie).
 */
export function applyOAuth2PublicCors(
  config: CorsConfig,
  logger: Logger,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const policy = new CorsPolicy(config);
  return (req, res) => {
    if (!config.enabled) {
      filterDownstreamHeaders(req, res, new Set(), config);
      return false;
    }
    const answer = policy.answer({
      method: req.method ?? "GET",
      origin: header(req.headers.origin),
      requestMethod: header(req.headers["access-control-request-method"]),
      requestHeaders: req.headers["access-control-request-headers"],
      anyOriginPreflight: clientCorsPaths.has(pathOf(req.url)),
    });
    const vary = res.getHeader("vary");
    res.setHeader("vary", appendVary(typeof vary === "string" ? vary : undefined, answer.vary));
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    if (config.debug) {
      logger.info({ origin: req.headers.origin, method: req.method }, `cors: ${answer.reason}`);
    }
    if (answer.preflight) {
      res.writeHead(204).end();
      return true;
    }
    filterDownstreamHeaders(req, res, new Set(Object.keys(answer.headers)), config);
    return false;
  };
}
