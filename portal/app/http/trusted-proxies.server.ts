import { isIP } from "node:net";
import proxyAddr from "proxy-addr";

/** Addresses far apart in each family: a list that trusts all of them trusts everyone. */
const spreadIPv4 = ["1.1.1.1", "100.1.1.1", "223.1.1.1"];
const spreadIPv6 = ["2001:db8::1", "2a00::1", "3fff::1"];

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
  let trusts: (address: string, hop: number) => boolean;
  try {
    trusts = proxyAddr.compile(entries);
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)} (expected IP addresses, CIDR ranges, loopback, linklocal, uniquelocal or none)`,
      { cause: error },
    );
  }
  for (const family of [spreadIPv4, spreadIPv6]) {
    if (family.every((address) => trusts(address, 0))) {
      throw new Error(
        "trusts every address, so any client could choose its own: list the proxies' addresses or ranges",
      );
    }
  }
  return entries;
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
