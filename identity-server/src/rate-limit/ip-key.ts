import { isIPv4, isIPv6 } from "node:net";

/**
 * The key a per-IP budget counts a client under. An IPv6 client is normally given a whole /64 (and
 * picks new addresses in it at will: privacy extensions), so keying on the full address gives one
 * client 2^64 budgets; IPv6 addresses are therefore grouped by their /64 prefix. An IPv4-mapped
 * IPv6 address (`::ffff:192.0.2.1`, a dual-stack socket's view of an IPv4 client) is that IPv4
 * address. Anything else (IPv4, an empty or unparsable value) is its own key.
 */
export function ipLimitKey(ip: string): string {
  const address = ip.trim().replace(/%.*$/, "").toLowerCase();
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, an IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const tail = text.slice(text.lastIndexOf(":") + 1);
  if (isIPv4(tail)) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split(".").map(Number);
    text = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", rest] = text.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const before = parse(head);
  const after = rest === undefined ? [] : parse(rest);
  const zeros = Array<number>(8 - before.length - after.length).fill(0);
  return [...before, ...zeros, ...after];
}
