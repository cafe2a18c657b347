import { originMatches, type OriginPattern } from "./cors-origins.ts";

// Cross-origin resource sharing as Kratos' and Hydra's `serve.public.cors` does it (they run
// rs/cors in front of every public route). Written here rather than with @fastify/cors because
// the same policy must also run on the OAuth2 public listener, a plain node:http server in front
// of oidc-provider, and because rs/cors differs from @fastify/cors where a browser can see it:
// every preflight is answered 204 before any route (refused ones without CORS headers), a
// preflight whose method or headers are not allowed gets no CORS headers, an actual request
// with a method not allowed gets none, and the allowed methods and headers are echoed from the
// request rather than listed.

export interface CorsConfig {
  /** Off by default, as in Kratos and Hydra. */
  enabled: boolean;
  /** Checked patterns (`parseOriginPattern`); never empty when enabled. */
  allowedOrigins: readonly OriginPattern[];
  /** Upper-case method names. */
  allowedMethods: readonly string[];
  /** Header names a preflight may ask for; `*` allows any. */
  allowedHeaders: readonly string[];
  /** Header names readable by the calling script. */
  exposedHeaders: readonly string[];
  allowCredentials: boolean;
  /** Seconds a browser may cache a preflight's answer; 0 sends no Access-Control-Max-Age. */
  maxAgeSeconds: number;
  /** Logs why each cross-origin request was or was not allowed. */
  debug: boolean;
}

/** What a listener needs from a request. Header values as Node gives them. */
export interface CorsRequest {
  method: string;
  origin: string | undefined;
  requestMethod: string | undefined;
  requestHeaders: string | string[] | undefined;
  /** A preflight from any origin is allowed (Hydra's per-client routes, see public-cors.ts). */
  anyOriginPreflight?: boolean;
}

export interface CorsAnswer {
  /** A preflight: answer 204 with `headers` and nothing else; it never reaches a route. */
  preflight: boolean;
  /** Added to any Vary the answer already has. */
  vary: string;
  /** CORS headers to set (none when the origin, method or headers are not allowed). */
  headers: Record<string, string>;
  /** Why, for the debug log. */
  reason: string;
}

const preflightVary = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";

/** Go's http.CanonicalHeaderKey for the Expose-Headers list (rs/cors sends them so). */
function canonicalHeaderName(name: string): string {
  return name
    .toLowerCase()
    .split("-")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("-");
}

/** Appends to a Vary value without repeating it. */
export function appendVary(current: string | undefined, value: string): string {
  return current === undefined || current === "" ? value : `${current}, ${value}`;
}

export class CorsPolicy {
  readonly config: CorsConfig;
  readonly #allowedHeaders: ReadonlySet<string>;
  readonly #anyHeader: boolean;
  readonly #exposed: string;

  constructor(config: CorsConfig) {
    this.config = config;
    this.#allowedHeaders = new Set(config.allowedHeaders.map((h) => h.trim().toLowerCase()));
    this.#anyHeader = this.#allowedHeaders.has("*");
    this.#exposed = config.exposedHeaders.map(canonicalHeaderName).join(", ");
  }

  get enabled(): boolean {
    return this.config.enabled;
  }

  originAllowed(origin: string): boolean {
    return originMatches(this.config.allowedOrigins, origin);
  }

  /** rs/cors: OPTIONS is always allowed (it is the preflight itself). */
  #methodAllowed(method: string): boolean {
    return method === "OPTIONS" || this.config.allowedMethods.includes(method);
  }

  /** Every header the preflight names must be allowed; an empty list asks for none. */
  #headersAllowed(requested: string | string[] | undefined): boolean {
    if (requested === undefined || this.#anyHeader) return true;
    const names = (Array.isArray(requested) ? requested.join(",") : requested)
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== "");
    return names.every((name) => this.#allowedHeaders.has(name));
  }

  #credentials(headers: Record<string, string>): Record<string, string> {
    if (this.config.allowCredentials) headers["access-control-allow-credentials"] = "true";
    return headers;
  }

  /** The answer to one request; only call it when the policy is enabled. */
  answer(request: CorsRequest): CorsAnswer {
    const { origin } = request;
    const preflight = request.method === "OPTIONS" && (request.requestMethod ?? "") !== "";
    const vary = preflight ? preflightVary : "Origin";
    const refused = (reason: string): CorsAnswer => ({ preflight, vary, headers: {}, reason });
    if (origin === undefined || origin === "") return refused("no Origin header");
    // The origin is echoed, never `*`: Kratos checks origins with a function, so rs/cors
    // reflects an allowed origin even when `*` is configured.
    const preflightOfAnyOrigin = preflight && request.anyOriginPreflight === true;
    if (!preflightOfAnyOrigin && !this.originAllowed(origin)) {
      return refused(`origin ${origin} not allowed`);
    }
    if (preflight) {
      const requestMethod = request.requestMethod ?? "";
      if (!this.#methodAllowed(requestMethod))
        return refused(`method ${requestMethod} not allowed`);
      if (!this.#headersAllowed(request.requestHeaders)) {
        return refused(`headers ${String(request.requestHeaders)} not allowed`);
      }
      const headers: Record<string, string> = {
        "access-control-allow-origin": origin,
        "access-control-allow-methods": requestMethod,
      };
      const asked = Array.isArray(request.requestHeaders)
        ? request.requestHeaders.join(", ")
        : request.requestHeaders;
      if (asked !== undefined && asked !== "") headers["access-control-allow-headers"] = asked;
      this.#credentials(headers);
      if (this.config.maxAgeSeconds > 0) {
        headers["access-control-max-age"] = String(this.config.maxAgeSeconds);
      }
      return { preflight, vary, headers, reason: "preflight allowed" };
    }
    if (!this.#methodAllowed(request.method))
      return refused(`method ${request.method} not allowed`);
    const headers: Record<string, string> = { "access-control-allow-origin": origin };
    if (this.#exposed !== "") headers["access-control-expose-headers"] = this.#exposed;
    return { preflight, vary, headers: this.#credentials(headers), reason: "request allowed" };
  }
}
