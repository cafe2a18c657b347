import { isIP } from "node:net";
import proxyAddr from "proxy-addr";

/**
 * PORTAL_TRUSTED_PROXIES: the addresses whose X-Forwarded-For (and -Proto, -Host) Express
 * believes, as a comma- or space-separated list of IP addresses, CIDR ranges (`10.0.0.0/8`,
 * `fd00::/8`, `10.0.0.0/255.0.0.0`) and proxy-addr's names `loopback`, `linklocal`,
 * `uniquelocal`; `none` trusts no one. The request's address (`req.ip`: the per-IP limits of the
 * identity service, the request log) is the nearest address in the chain that is not trusted.
 *
 * Checked with proxy-addr itself, the module Express compiles `trust proxy` with, so whatever
 * passes here is what Express will use. Throws an Error saying which entry is wrong.
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

/**
 * The browser's address for the identity service and the log: `req.ip`, unless a trusted proxy
 * passed something that is no address (then the peer's own, never a string a client chose).
 */
export function clientAddress(req: {
  ip?: string;
  socket: { remoteAddress?: string };
}): string | undefined {
  return req.ip !== undefined && isIP(req.ip) !== 0 ? req.ip : req.socket.remoteAddress;
}
