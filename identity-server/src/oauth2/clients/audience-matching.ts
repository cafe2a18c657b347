// fosite's DefaultAudienceMatchingStrategy (audience_strategy.go), which Hydra uses for every
// audience check: a requested audience is allowed when a whitelisted one has the same scheme and
// host and its path equals the whitelisted path or lies below it ("https://api/a" allows
// "https://api/a/b" but not "https://api/ab"). Audiences need not be URLs: Go's url.Parse reads
// "api" as a bare path, and so does this.

interface UrlParts {
  scheme: string;
  host: string;
  path: string;
}

/** The parts of Go's url.Parse result the strategy compares. */
function parts(value: string): UrlParts {
  const withoutFragment = value.split("#")[0] ?? "";
  const withoutQuery = withoutFragment.split("?")[0] ?? "";
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/.exec(withoutQuery);
  const scheme = match?.[1]?.toLowerCase() ?? "";
  const rest = match ? (match[2] ?? "") : withoutQuery;
  if (!rest.startsWith("//")) return { scheme, host: "", path: rest };
  const slash = rest.indexOf("/", 2);
  return slash === -1
    ? { scheme, host: rest.slice(2), path: "" }
    : { scheme, host: rest.slice(2, slash), path: rest.slice(slash) };
}

function allows(whitelisted: string, requested: string): boolean {
  const allowed = parts(whitelisted);
  const wanted = parts(requested);
  if (wanted.scheme !== allowed.scheme || wanted.host !== allowed.host) return false;
  const allowedPath = allowed.path.replace(/\/+$/, "");
  if (wanted.path === allowed.path || wanted.path === allowedPath) return true;
  return (
    wanted.path.length > allowedPath.length &&
    `${wanted.path.slice(0, allowedPath.length + 1).replace(/\/+$/, "")}/` === `${allowedPath}/`
  );
}

/** The first requested audience the client's whitelist does not allow, if any. */
export function audienceNotAllowed(
  whitelist: readonly string[],
  requested: readonly string[],
): string | undefined {
  return requested.find((audience) => !whitelist.some((allowed) => allows(allowed, audience)));
}

/** fosite's hint for an audience the client may not have. */
export function audienceNotAllowedHint(audience: string): string {
  return `Requested audience '${audience}' has not been whitelisted by the OAuth 2.0 Client.`;
}
