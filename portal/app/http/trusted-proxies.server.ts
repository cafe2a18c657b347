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
  try {
    proxyAddr.compile(entries);
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)} (expected IP addresses, CIDR ranges, loopback, linklocal, uniquelocal or none)`,
      { cause: error },
    );
  }
  return entries;
}
