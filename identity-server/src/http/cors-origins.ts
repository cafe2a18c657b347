import { getDomain } from "tldts";

// Origin patterns as Kratos and Hydra read `serve.public.cors.allowed_origins` (rs/cors with
// ory/x corsx.CheckOrigin): `*` alone allows every origin; otherwise an origin may hold one `*`
// standing for zero or more characters. Current Ory versions ignore a wildcard that is not
// bounded at a registrable domain ("https://*foo.com" would match "https://evilfoo.com"); here
// such a pattern is refused at start-up instead, so a typo cannot silently open or close CORS.

/** A checked pattern: `*`, an exact origin, or a prefix and suffix around one wildcard. */
export type OriginPattern =
  | { kind: "any" }
  | { kind: "exact"; origin: string }
  | { kind: "wildcard"; prefix: string; suffix: string };

/**
 * The domain after a wildcard, as corsx.ClassifyOrigin reads it: what follows the first dot after
 * the last `*`, without a port. undefined when no dot follows (a trailing or bare wildcard).
 */
function wildcardBase(pattern: string): string | undefined {
  const rest = pattern.slice(pattern.lastIndexOf("*"));
  const dot = rest.indexOf(".");
  if (dot === -1) return undefined;
  return rest.slice(dot + 1).split(":")[0];
}

/** Whether the base has a registrable domain (Go's EffectiveTLDPlusOne succeeds), private suffixes included. */
function isRegistrable(base: string): boolean {
  return (
    base !== "" && getDomain(base, { allowPrivateDomains: true, validateHostname: true }) !== null
  );
}

/**
 * Parses one configured origin. Throws an Error with a sentence for the configuration message
 * when the pattern is not an origin, has more than one wildcard or an unbounded one.
 */
export function parseOriginPattern(raw: string): OriginPattern {
  const value = raw.trim().toLowerCase();
  if (value === "*") return { kind: "any" };
  const stars = value.split("*").length - 1;
  if (stars > 1) throw new Error(`"${raw}" has more than one *`);
  // The wildcard stands for host characters; a stand-in lets the URL parser check the rest.
  const probe = value.replace("*", "wildcard");
  let url: URL;
  try {
    url = new URL(probe);
  } catch {
    throw new Error(`"${raw}" is not an origin like https://app.example.com`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new Error(`"${raw}" is not an http(s) origin`);
  // Browsers send `scheme://host[:port]`; anything more could never match.
  if (url.origin !== probe) {
    throw new Error(`"${raw}" is not an origin (scheme://host[:port], no path or trailing slash)`);
  }
  if (stars === 0) return { kind: "exact", origin: value };
  const base = wildcardBase(value);
  if (base === undefined || !isRegistrable(base)) {
    throw new Error(
      `"${raw}" has a wildcard that is not bounded at a registrable domain (write https://*.example.com)`,
    );
  }
  const [prefix = "", suffix = ""] = value.split("*");
  return { kind: "wildcard", prefix, suffix };
}

/** rs/cors' match: case-insensitive; a wildcard needs the prefix and suffix without overlap. */
export function originMatches(patterns: readonly OriginPattern[], origin: string): boolean {
  const candidate = origin.toLowerCase();
  return patterns.some((pattern) => {
    if (pattern.kind === "any") return true;
    if (pattern.kind === "exact") return pattern.origin === candidate;
    return (
      candidate.length >= pattern.prefix.length + pattern.suffix.length &&
      candidate.startsWith(pattern.prefix) &&
      candidate.endsWith(pattern.suffix)
    );
  });
}
