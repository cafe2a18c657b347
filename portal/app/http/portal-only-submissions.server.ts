import type { NextFunction, Request, Response } from "express";
import { identityError } from "./identity-error-body.server.ts";

/**
 * Self-service submissions the portal's own pages make on the server (registration and settings,
 * with the portal's own password composition rule, spec §5, message 203), so the browser never
 * needs to post them to the identity service itself. Posted through the `/api/kratos` proxy they
 * would skip that rule, so the proxy refuses them, also sent as a GET with the fields in the query.
 * Everything else passes: flows are still created and read through it, logins, logout, whoami,
 * and GET navigation to a settings flow (`?flow=` alone).
 */
const portalOnlyPaths = new Set(["/self-service/registration", "/self-service/settings"]);

const readOnlyMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The proxied path as the identity service could read it: percent-decoded, dot segments and
 * backslashes resolved, repeated and trailing slashes dropped, lower case. Erring towards a
 * match only refuses requests that would have been 404 there anyway.
 */
function proxiedPathOf(url: string): string {
  const raw = url.split(/[?#]/, 1)[0] ?? "";
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // Broken escapes: compared as sent.
  }
  // Slashes collapsed first, so "//self-service" cannot pass for a host name below.
  const slashes = `/${decoded}`.replace(/\\/g, "/").replace(/\/{2,}/g, "/");
  const resolved = new URL(slashes, "http://portal.invalid").pathname;
  return resolved.replace(/\/+$/, "").toLowerCase() || "/";
}

/**
 * Kratos (and the embedded server) read a GET of these paths as a submission too, from the query
 * (`?method=password&password=…`). A GET passes only as navigation: no parameter but `flow`.
 */
function isNavigation(url: string): boolean {
  const query = new URLSearchParams(url.split("#", 1)[0]?.split("?").slice(1).join("?") ?? "");
  return [...query.keys()].every((name) => name === "flow");
}

export function isPortalOnlySubmission(method: string, url: string): boolean {
  if (!portalOnlyPaths.has(proxiedPathOf(url))) return false;
  const verb = method.toUpperCase();
  if (verb === "OPTIONS") return false;
  return !(readOnlyMethods.has(verb) && isNavigation(url));
}

/** Mounted on the proxy's path (`req.url` is below it): 403 in the identity service's shape. */
export function refusePortalOnlySubmissions(req: Request, res: Response, next: NextFunction) {
  if (!isPortalOnlySubmission(req.method, req.url)) {
    next();
    return;
  }
  res
    .status(403)
    .type("application/json")
    .send(
      JSON.stringify(
        identityError(
          403,
          "Registration and settings are submitted through the portal's own pages, not through this proxy.",
        ),
      ),
    );
}
