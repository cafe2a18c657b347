import { domainToASCII } from "node:url";
import { normalizePhone } from "../identity/normalize.ts";

/**
 * The key an address's code-send budget is counted under: one per mailbox, however it is spelled.
 * Mail to `owner@EXAMPLE.org.` (a fully qualified domain), `owner+x@example.org` (sub-addressing)
 * and `owner@example.org` lands in the same mailbox, so they share one budget: lower-cased,
 * NFKC, the domain in IDNA ASCII form without trailing dots, and any `+tag` dropped from the local
 * part. Only the limiter key: messages still go to the address as given.
 */
export function codeSendAddressKey(address: string): string {
  const value = address.trim().normalize("NFKC").toLowerCase();
  const at = value.lastIndexOf("@");
  if (at < 0) return normalizePhone(value);
  const plus = value.indexOf("+");
  const local = plus >= 0 && plus < at ? value.slice(0, plus) : value.slice(0, at);
  const domain = value.slice(at + 1).replace(/\.+$/, "");
  // domainToASCII answers "" for what is no valid domain; such an address keeps its own spelling.
  return `${local}@${domainToASCII(domain) || domain}`;
}
