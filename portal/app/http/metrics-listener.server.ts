import { createServer, type Server } from "node:http";
import type { Registry } from "prom-client";

/** `/metrics`, and Kratos' own path for the same, `/metrics/prometheus`. */
const paths = new Set(["/metrics", "/metrics/prometheus"]);

/**
 * `GET /metrics` on 127.0.0.1 only, apart from the public listener: the numbers (request rates,
 * memory, the identity service's failures) are for the operator's scraper, not for browsers.
 * Resolves once it listens.
 */
export async function startMetricsListener(registry: Registry, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (!paths.has(path) || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not Found");
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end(String(error));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return server;
}
