import { Agent, createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the proxy passed on: which upstream (index into `upstreams`) answered it. */
type ProxiedRequest = { upstream: number; method: string; path: string };

export type RoundRobinProxy = {
  url: string;
  /** Every request in arrival order. */
  requests: ProxiedRequest[];
  /** Requests per upstream, by index. */
  counts: () => number[];
  close: () => Promise<void>;
};

type RoundRobinOptions = {
  /** Origins of the instances, e.g. http://127.0.0.1:3701. */
  upstreams: string[];
  port: number;
  /**
   * The address the proxy connects to the instances from. A loopback address other than the
   * browser's (127.0.0.2) tells the proxy apart from its clients, as a load balancer's own subnet
   * would: the instances trust this one and not the browser.
   */
  localAddress?: string;
};

/** Hop-by-hop headers (RFC 9110 7.6.1): for one connection, never passed on. */
const hopByHop = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name)));
}

/**
 * A load balancer in miniature for the scale-out test: each request goes to the next instance in
 * turn, whatever connection it came on (no stickiness, so state kept in one instance would show),
 * with the browser's address appended to X-Forwarded-For as load balancers do. Host is passed on.
 */
export async function startRoundRobinProxy(options: RoundRobinOptions): Promise<RoundRobinProxy> {
  const agents = options.upstreams.map(() => new Agent({ keepAlive: true }));
  const requests: ProxiedRequest[] = [];
  let next = 0;

  const server = createServer((incoming, outgoing) => {
    const upstream = next;
    next = (next + 1) % options.upstreams.length;
    requests.push({ upstream, method: incoming.method ?? "GET", path: incoming.url ?? "/" });
    const target = new URL(incoming.url ?? "/", options.upstreams[upstream]);
    const forwardedFor = [incoming.headers["x-forwarded-for"], incoming.socket.remoteAddress]
      .filter((part) => part !== undefined && part !== "")
      .join(", ");
    const proxied = request(target, {
      method: incoming.method,
      headers: { ...endToEnd(incoming.headers), "x-forwarded-for": forwardedFor },
      agent: agents[upstream],
      localAddress: options.localAddress,
    });
    proxied.on("response", (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      answer.pipe(outgoing);
    });
    proxied.on("error", (error) => {
      if (outgoing.headersSent) {
        outgoing.destroy(error);
        return;
      }
      outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end(`upstream ${upstream}: ${error.message}`);
    });
    incoming.pipe(proxied);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://localhost:${port}`,
    requests,
    counts: () =>
      options.upstreams.map(
        (_upstream, index) => requests.filter((entry) => entry.upstream === index).length,
      ),
    close: () =>
      new Promise<void>((resolve) => {
        for (const agent of agents) agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
