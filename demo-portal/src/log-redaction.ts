// The demo's request log must not keep what comes back in the callback's query (the
// authorization code, state, errors that quote them) or any other secret a URL may carry.

const redacted = "[redacted]";

const secretNames = new Set(["code", "state", "token", "iss", "session_state", "id_token_hint"]);
const secretSuffixes = ["_challenge", "_verifier", "_token", "_secret", "_code"];

function isSecretName(raw: string): boolean {
  let name = raw;
  try {
    name = decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    // A name that does not decode is compared as it is.
  }
  const lower = name.toLowerCase();
  return secretNames.has(lower) || secretSuffixes.some((suffix) => lower.endsWith(suffix));
}

/** The URL with the value of every secret query parameter replaced by `[redacted]`. */
function redactUrl(url: string): string {
  const queryAt = url.indexOf("?");
  if (queryAt === -1) return url;
  const query = url
    .slice(queryAt + 1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      if (equals === -1 || !isSecretName(pair.slice(0, equals))) return pair;
      return `${pair.slice(0, equals)}=${redacted}`;
    })
    .join("&");
  return `${url.slice(0, queryAt)}?${query}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer with the URL redacted (headers, cookies included, stay out). */
export function redactedRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
