import type { IncomingMessage } from "node:http";
import proxyAddr from "proxy-addr";
import { cutForwardedForAtInvalid, type TrustProxy } from "../../http/trusted-proxies.ts";

// The OAuth2 public listener believes X-Forwarded-* only from IDENTITY_TRUSTED_PROXIES, like the
// identity server's (Fastify's trustProxy). oidc-provider is Koa, whose `app.proxy` believes
// them from any peer (and takes the leftmost X-Forwarded-For, which the client writes), so the
// headers are settled here before it sees the request: from a peer that is not trusted they are
// removed; from a trusted one X-Forwarded-For becomes the one address proxy-addr resolves (read
// from the right, each proxy appending what it saw), so the client cannot choose it.

const clientIps = new WeakMap<IncomingMessage, string>();
const forwardedHeaders = ["x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"];

/** Settles a request's X-Forwarded-* headers by the trusted list and records its client IP. */
export function settleForwardedHeaders(req: IncomingMessage, trust: TrustProxy): void {
  const peer = req.socket.remoteAddress ?? "";
  if (!trust(peer, 0)) {
    for (const header of forwardedHeaders) delete req.headers[header];
    clientIps.set(req, peer);
    return;
  }
  cutForwardedForAtInvalid(req.headers);
  const ip = proxyAddr(req, trust);
  clientIps.set(req, ip);
  if (req.headers["x-forwarded-for"] !== undefined) req.headers["x-forwarded-for"] = ip;
}

/** The client IP for per-IP limits: as settled above, else the peer address. */
export function requestIp(req: IncomingMessage): string {
  return clientIps.get(req) ?? req.socket.remoteAddress ?? "";
}
