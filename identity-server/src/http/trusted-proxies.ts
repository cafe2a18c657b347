import type { IncomingHttpHeaders } from "node:http";
import { isIP } from "node:net";
import proxyAddr from "proxy-addr";

/** A compiled list: does the proxy at `address` (`hop` steps from us) get believed? */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * IDENTITY_TRUSTED_PROXIES, in the grammar of the portal's PORTAL_TRUSTED_PROXIES: IP addresses,
 * CIDR ranges (`10.0.0.0/8`, `fd00::/8`, `10.0.0.0/255.0.0.0`) and proxy-addr's names `loopback`,
 * `linklocal`, `uniquelocal`, separated by commas or spaces; `none` trusts no one. Checked with
 * proxy-addr itself (what Fastify compiles `trustProxy` with). Throws an Error saying which entry
 * is wrong; a list that would trust every address is refused.
 */
export function parseTrustedProxies(value: string): string[] {
  const entries = value.split(/[\s,]+/).filter((entry) => entry !== "");
  if (entries.length === 1 && entries[0] === "none") return [];
  if (entries.length === 0) throw new Error("must list addresses, ranges or `none`");
  const count = entries.find((entry) => /^\d+$/.test(entry));
  if (count !== undefined) {
    throw new Error(
      `"${count}" reads as an address, not a number of hops: list the proxies' addresses or ranges`,
    );
  }
  try {
    // The check proxy-addr itself makes when the list is compiled for use.
    proxyAddr.compile(entries);
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)} (expected IP addresses, CIDR ranges, loopback, linklocal, uniquelocal or none)`,
      { cause: error },
    );
  }
  const broad = entries.find(tooBroad);
  if (broad !== undefined) {
    throw new Error(
      `"${broad}" is wider than a private network (/8 for IPv4, /7 for IPv6): list the proxies' addresses or ranges`,
    );
  }
  return entries;
}

/**
 * A range wider than a private network's: an IPv4 range wider than /8 (10.0.0.0/8), an IPv6 one
 * wider than /7 (uniquelocal, fc00::/7), or IPv4-mapped IPv6 wider than /104 (an IPv4 /8).
 * Such a list would let most of the Internet choose its own address.
 */
function tooBroad(entry: string): boolean {
  const [address = "", mask] = entry.split("/");
  const family = isIP(address);
  if (mask === undefined || family === 0) return false;
  const bits = /^\d+$/.test(mask)
    ? Number(mask)
    : mask
        .split(".")
        .reduce(
          (sum, octet) => sum + ((Number(octet) >>> 0).toString(2).match(/1/g) ?? []).length,
          0,
        );
  if (family === 4) return bits < 8;
  return /^(::|0:0:0:0:0:)ffff:/i.test(address) ? bits < 104 : bits < 7;
}

/** The list as a function for Fastify's `trustProxy` and the OAuth2 listener. */
export function compileTrustedProxies(entries: readonly string[]): TrustProxy {
  return proxyAddr.compile([...entries]);
}

/**
 * Cuts X-Forwarded-For after its nearest entry that is not an IP address: proxy-addr would stop
 * there and take the text itself ("garbage", "8.8.8.8%eth0") as the client's address, for rate
 * limits and sessions' devices. What is left is read as before; with nothing left, the peer that
 * sent it is the client.
 */
export function cutForwardedForAtInvalid(headers: IncomingHttpHeaders): void {
  const value = headers["x-forwarded-for"];
  if (value === undefined) return;
  const entries = (Array.isArray(value) ? value.join(",") : value).split(",").map((e) => e.trim());
  const invalid = entries.findLastIndex((entry) => isIP(entry) === 0);
  if (invalid === -1) return;
  const kept = entries.slice(invalid + 1);
  if (kept.length === 0) delete headers["x-forwarded-for"];
  else headers["x-forwarded-for"] = kept.join(", ");
}
