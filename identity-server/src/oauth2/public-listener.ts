import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import {
  answerClientError,
  clientErrorReason,
  clientErrorStatus,
  refuseConnect,
} from "../http/client-errors.ts";
import { nodeListenerOptions, type ListenerLimits } from "../http/listener-limits.ts";
import { originForm } from "../http/request-target.ts";
import { compileTrustedProxies } from "../http/trusted-proxies.ts";
import { trackDrain } from "../http/drain.ts";
import type { Tracing } from "../tracing/tracing.ts";
import { traceNodeListener } from "../tracing/tracing-hooks.ts";
import type { IdentityMetrics } from "../metrics/identity-metrics.ts";
import { countNodeRequests, oauth2PublicRoute } from "../metrics/node-listener-metrics.ts";
import { answerPublicHealth } from "./health.ts";
import { HydraError } from "./hydra-error.ts";
import type { OAuth2Config } from "./oauth2-config.ts";
import type { ProviderHolder } from "./provider/provider-holder.ts";
import { settleForwardedHeaders } from "./provider/request-ip.ts";
import { applyOAuth2PublicCors } from "./public-cors.ts";
import { setOAuth2PublicHeaders } from "./public-security-headers.ts";
import type { OAuth2Db } from "./store/oauth2-tables.ts";

export interface PublicListenerOptions {
  config: OAuth2Config;
  db: OAuth2Db;
  logger: Logger;
  limits: ListenerLimits;
  /** Proxies whose X-Forwarded-* headers are believed. */
  trustedProxies: readonly string[];
  shutdownGraceMs: number;
  metrics: IdentityMetrics;
  tracing: Tracing | undefined;
  /** The provider once it is built: it needs the listener's port for its issuer; 503 until then. */
  provider: () => ProviderHolder | undefined;
}

/**
 * The public listener (not listening yet): oidc-provider behind Hydra's public headers, CORS and
 * health checks, counted and traced, with Hydra's error shape for requests Node's parser refuses,
 * and a drain for a graceful close.
 */
export function createPublicListener(options: PublicListenerOptions) {
  const { config, db, logger, metrics } = options;
  const cors = applyOAuth2PublicCors(config.cors, logger.child({ listener: "oauth2-public" }));
  const trustProxy = compileTrustedProxies(options.trustedProxies);
  const server = createServer(nodeListenerOptions(options.limits), (req, res) => {
    settleForwardedHeaders(req, trustProxy);
    // An absolute-form target (`GET http://host/path`) is routed as its path and query.
    req.url = originForm(req.url ?? "/");
    setOAuth2PublicHeaders(res);
    // Hydra's serve.public.cors: a preflight is answered here, before health, flows or cookies.
    if (cors(req, res)) return;
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const publicVersion = config.oryExtensions !== false;
    void answerPublicHealth(db, req.method, path, res, publicVersion, drain.isDraining()).then(
      (answered) => {
        if (answered) return;
        const holder = options.provider();
        if (!holder) {
          res.writeHead(503).end();
          return;
        }
        return holder.handle(req, res);
      },
    );
  });
  const drain = trackDrain(server, options.shutdownGraceMs);
  countNodeRequests(server, metrics, "oauth2-public", oauth2PublicRoute);
  if (options.tracing) {
    traceNodeListener(server, options.tracing, "oauth2-public", oauth2PublicRoute);
  }
  // Requests Node's parser refuses get Hydra's error shape rather than an empty 400.
  server.on("clientError", (error: Error & { code?: string }, socket) =>
    answerClientError(
      socket,
      error,
      new HydraError(clientErrorStatus(error), "invalid_request", clientErrorReason(error)).body(),
    ),
  );
  refuseConnect(server, (status) =>
    new HydraError(status, "invalid_request", "The method CONNECT is not supported.").body(),
  );
  return { server, drain };
}

export function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

export function urlOf(address: AddressInfo): string {
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
