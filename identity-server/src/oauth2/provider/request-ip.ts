import type { IncomingMessage } from "node:http";

// The client IP for per-IP limits, by the identity server's rule (http/fastify-setup.ts): the
// peer address, and `X-Forwarded-For` only as far as it was written by a loopback proxy. The
// list is read from the right (each proxy appends what it saw), so a client cannot choose its
// key by sending its own `X-Forwarded-For`. oidc-provider's `ctx.ip` would take the leftmost
// entry behind an https issuer, which the client writes.

const trustedProxies = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

export function requestIp(req: IncomingMessage): string {
  let ip = req.socket.remoteAddress ?? "";
  const header = req.headers["x-forwarded-for"];
  const forwarded = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  while (trustedProxies.has(ip) && forwarded.length > 0) ip = forwarded.pop() ?? "";
  return ip;
}
