import proxyAddr from "proxy-addr";

/** A compiled list: does the proxy at `address` (`hop` steps from us) get believed? */
export type TrustProxy = (address: string, hop: number) => boolean;

/** Addresses far apart in each family: a list that trusts all of them trusts everyone. */
const spreadIPv4 = ["1.1.1.1", "100.1.1.1", "223.1.1.1"];
const spreadIPv6 = ["2001:db8::1", "2a00::1", "3fff::1"];

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
  let trusts: TrustProxy;
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

/** The list as a function for Fastify's `trustProxy` and the OAuth2 listener. */
export function compileTrustedProxies(entries: readonly string[]): TrustProxy {
  return proxyAddr.compile([...entries]);
}
