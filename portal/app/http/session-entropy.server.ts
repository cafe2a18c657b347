import { readCookie } from "./cookies.server.ts";

/** Header (and cookie) carrying the browser's fingerprint (spec §7), when the browser sent one. */
export const sessionEntropyName = "x-session-entropy";

/** Fingerprints are hashes: anything longer or with other characters is not one. */
const entropyPattern = /^[\w.:+/=-]{1,256}$/;

/**
 * The current browser's fingerprint: the x-session-entropy header a script sent, else the
 * cookie of that name (documents carry no custom headers). The identity service records it
 * with a trusted device; the settings page marks the device whose fingerprint matches.
 */
export function sessionEntropy(request: Request): string | undefined {
  const value = request.headers.get(sessionEntropyName) ?? readCookie(request, sessionEntropyName);
  const trimmed = value?.trim();
  return trimmed !== undefined && entropyPattern.test(trimmed) ? trimmed : undefined;
}
