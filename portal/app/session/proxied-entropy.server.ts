import type { IncomingHttpHeaders } from "node:http";
import { sessionEntropy } from "../http/session-entropy.server.ts";

/**
 * The fingerprint the /api/kratos proxy passes on as x-session-entropy (spec §7): the header a
 * script sent, else the cookie the portal's script keeps; undefined when neither is a fingerprint.
 */
export function proxiedEntropy(incoming: IncomingHttpHeaders): string | undefined {
  const headers = new Headers();
  for (const name of ["cookie", "x-session-entropy"]) {
    const value = incoming[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return sessionEntropy(new Request("http://portal.invalid/", { headers }));
}
