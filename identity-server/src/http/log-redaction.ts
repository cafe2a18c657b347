import type { FastifyBaseLogger } from "fastify";
import type { IncomingMessage } from "node:http";

// Request URLs carry secrets in their query: logout tokens, recovery and verification codes, flow
// ids, OAuth2 challenges and verifiers, PKCE values. Ory's loggers hide the whole query unless
// `log.leak_sensitive_values` is set; here only the values of those parameters are replaced, so
// the rest of a URL (return_to, aal, refresh) still helps when reading a log.

const redacted = "[redacted]";

const secretNames = new Set([
  "token",
  "code",
  "flow",
  "id",
  "state",
  "nonce",
  "password",
  "secret",
  "session_token",
  "id_token_hint",
  "client_secret",
  "assertion",
  "api_key",
]);

// login_challenge, consent_challenge, code_challenge, login_verifier, code_verifier, refresh_token …
const secretSuffixes = ["_challenge", "_verifier", "_token", "_secret", "_code", "_key"];

function isSecretName(name: string): boolean {
  const lower = name.toLowerCase();
  return secretNames.has(lower) || secretSuffixes.some((suffix) => lower.endsWith(suffix));
}

// The OAuth2 service resumes an authorization at /oauth2/auth/<interaction id>: that id is the
// login or consent challenge.
const secretPath = /^(\/oauth2\/auth\/)[^/?#]+/;

/**
 * The URL with every secret query value (and the challenge in a resume path) replaced by
 * `[redacted]`. Works on the raw target: names are compared decoded, nothing else is re-encoded.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf("?");
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(secretPath, `$1${redacted}`);
  if (queryAt === -1) return path;
  const query = url
    .slice(queryAt + 1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      if (equals === -1) return pair;
      if (isSecretName(decodedName(rawName))) return `${rawName}=${redacted}`;
      // A URL in a parameter (return_to, redirect_uri …) may carry secrets in its own query.
      const value = decodedName(pair.slice(equals + 1));
      return value.includes("?") ? `${rawName}=${encodeURIComponent(redactUrl(value))}` : pair;
    })
    .join("&");
  return `${path}?${query}`;
}

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    return raw;
  }
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: IncomingMessage["socket"];
}

/** Fastify's request serializer with the URL redacted (headers, cookies included, stay out). */
function redactedRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Header fields that hold credentials, wherever a log line carries headers. */
const redactedPaths = [
  "req.headers.cookie",
  "req.headers.authorization",
  'req.headers["x-session-token"]',
  'res.headers["set-cookie"]',
  "headers.cookie",
  "headers.authorization",
  'headers["set-cookie"]',
  'headers["x-session-token"]',
];

/**
 * The logger a Fastify listener gets: Fastify prefers the instance's own `req` serializer to its
 * default (which prints the full URL), and pino blanks credential headers.
 */
export function redactingLogger(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger.child(
    {},
    {
      serializers: { req: redactedRequest },
      redact: { paths: redactedPaths, censor: redacted },
    },
  );
}
