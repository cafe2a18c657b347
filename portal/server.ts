import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import compression from "compression";
import express from "express";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";
import { pino } from "pino";
import type { RouterContextProvider } from "react-router";
import { getConfig } from "./app/config.server.ts";
import { bodyLimitBytes, fieldLimit, limitBodies } from "./app/http/body-limit.server.ts";
import { widenPolicy } from "./app/http/csp-origins.ts";
import { trackDrain } from "./app/http/graceful-shutdown.server.ts";
import { healthRoutes } from "./app/http/health.server.ts";
import { identityError } from "./app/http/identity-error-body.server.ts";
import { identityProxy } from "./app/http/identity-proxy.server.ts";
import { createIdentityReadiness } from "./app/http/identity-readiness.server.ts";
import { listenerOptions } from "./app/http/listener-limits.server.ts";
import { loadBuild, loadContextFactory } from "./app/http/load-build.server.ts";
import { startMetricsListener } from "./app/http/metrics-listener.server.ts";
import { createPageHandler } from "./app/http/page-handler.server.ts";
import { refusePortalOnlySubmissions } from "./app/http/portal-only-submissions.server.ts";
import type { RequestInfo } from "./app/http/request-context.ts";
import { pageRouteLabeller } from "./app/http/route-label.server.ts";
import { portalSecurityHeaders } from "./app/http/security-headers.server.ts";
import { spanEachRequest, startTracing, type RequestSpan } from "./app/http/tracing.server.ts";
import { clientAddress } from "./app/http/trusted-proxies.server.ts";

// The portal's folder: this file runs as server.ts or, with the types stripped beforehand, as
// dist/server.js (scripts/server-build.ts; `npm start` and scripts/start-all.ts run that).
const portalDir = new URL(
  import.meta.url.endsWith("/dist/server.js") ? "../" : "./",
  import.meta.url,
);

// Read and validated once: a bad variable stops start-up with its name in the message.
const config = getConfig();
const log = pino({ level: config.logLevel, base: { service: "portal" } });

interface RequestMeta {
  nonce: string;
  correlationId: string;
}

const build = await loadBuild(portalDir);
const createLoadContext = loadContextFactory<RequestInfo, RouterContextProvider>(build);

/** Per-response values the later middleware (helmet, the proxy, React Router) read back. */
const requestMeta = new WeakMap<ServerResponse, RequestMeta>();

// Prometheus metrics on their own loopback listener (PORTAL_METRICS_PORT), when asked for;
// prom-client is loaded only then (it and its default collectors cost memory for nothing).
const metrics =
  config.metricsPort === undefined
    ? undefined
    : (await import("./app/http/metrics.server.ts")).createPortalMetrics();
// OpenTelemetry (OTEL_EXPORTER_OTLP_ENDPOINT): a server span per request; off, the SDK is not loaded.
const tracing = await startTracing({ endpoint: config.otlpEndpoint });
/** The request's span, for what answers it (its trace context goes on to the identity service). */
const requestSpans = new WeakMap<ServerResponse, RequestSpan>();
const pageRoute = pageRouteLabeller(build.routes);
/** The route pattern of what answered, set by the handler that did (see routeLabel below). */
const answeredRoute = new WeakMap<ServerResponse, string>();

const app = express();
app.disable("x-powered-by");
// X-Forwarded-For names the browser when it comes from a trusted proxy (PORTAL_TRUSTED_PROXIES,
// by default this machine's); from anywhere else it is ignored, and req.ip is the peer's address.
app.set("trust proxy", config.trustedProxies);
// A request line in absolute form (`GET http://host/path`) or `*` names no page of this server:
// a clear 400 rather than a URL nothing downstream can build.
app.use((req: Request, res: Response, next: NextFunction) => {
  if (req.originalUrl.startsWith("/")) return next();
  res.status(400).type("text/plain").send("Bad Request");
});

// Timeouts for slow requests and idle keep-alive connections (PORTAL_HTTP_*).
const server = createServer(listenerOptions(config.listener), app);
const drain = trackDrain(server, config.shutdownGraceMs);
// Asked by the health check and after a failed page (shared, so checks arriving together are one).
const identityReadiness = createIdentityReadiness({ identityUrl: config.identityPublicUrl });

// Kratos' /health/alive and /health/ready, first: probes every few seconds stay out of the request
// log (as in Kratos) and get JSON, never a page.
app.use(healthRoutes({ isDraining: () => drain.isDraining(), identityReadiness }));

if (metrics) {
  app.use((req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.on("finish", () => {
      const seconds = (performance.now() - started) / 1000;
      metrics.request(req.method, routeLabel(req, res), res.statusCode, seconds);
    });
    next();
  });
}

app.use((req: Request, res: Response, next: NextFunction) => {
  const incoming = req.get("x-correlation-id");
  const meta: RequestMeta = {
    correlationId: incoming && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID(),
    nonce: randomBytes(16).toString("base64"),
  };
  requestMeta.set(res, meta);
  res.setHeader("x-correlation-id", meta.correlationId);
  const started = performance.now();
  res.on("finish", () => {
    log.info({
      correlationId: meta.correlationId,
      method: req.method,
      // The browser's address as the trusted proxies say (what the identity service's limits see).
      ip: clientAddress(req),
      // The whole path (req.path drops a mount's prefix, as /api/kratos'), never the query.
      path: req.originalUrl.split("?")[0],
      status: res.statusCode,
      ms: Math.round(performance.now() - started),
    });
  });
  next();
});

if (tracing) {
  const correlationIdOf = (res: ServerResponse) => requestMeta.get(res)?.correlationId;
  app.use(spanEachRequest(tracing, requestSpans, correlationIdOf, routeLabel));
}

// Permissions-Policy everywhere; no-store on every page and proxied answer (static files excepted).
app.use(portalSecurityHeaders(new URL("build/client", portalDir)));

// Every body is read (≤ 64 KiB, ≤ 256 form fields) before anything else sees it; larger ones are
// answered 413 at once, in the identity service's error shape on its proxy path.
app.use(
  limitBodies(
    {
      maxBytes: bodyLimitBytes,
      maxFields: fieldLimit,
      // Pages take forms only; the identity service answers for what reaches its proxy.
      formOnly: (req) => !(req.url ?? "").startsWith("/api/kratos/"),
    },
    (req, res, { status, reason }) => {
      const path = (req.url ?? "").split("?")[0] ?? "";
      // Answered on the socket, so the request log and span above never see it finish.
      requestSpans
        .get(res)
        ?.end(path.startsWith("/api/kratos/") ? "/api/kratos/*" : "unmatched", status);
      log.info({
        correlationId: requestMeta.get(res)?.correlationId,
        method: req.method,
        path,
        status,
        reason,
      });
      return path.startsWith("/api/kratos/")
        ? { contentType: "application/json", body: JSON.stringify(identityError(status, reason)) }
        : { contentType: "text/plain; charset=utf-8", body: reason };
    },
  ),
);

// Registration and settings are posted to the portal's own pages (its composition rule), never
// through the passthrough below.
app.use("/api/kratos", refusePortalOnlySubmissions);

// The browser reaches the identity service only through this passthrough (cookies both ways).
app.use(
  "/api/kratos",
  identityProxy({
    target: config.identityPublicUrl,
    correlationId: (res) => requestMeta.get(res)?.correlationId,
    metrics,
    traceHeaders: (res) => requestSpans.get(res)?.headers,
  }),
);

// The OAuth2 service is a hop of every no-JS post on a challenge page (login → /oauth2/auth …).
const formTargets = [
  "'self'",
  new URL(config.ssoPortalUrl).origin,
  new URL(config.oauth2PublicUrl).origin,
];
app.use(
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          "'self'",
          (_req: IncomingMessage, res: ServerResponse) =>
            `'nonce-${requestMeta.get(res)?.nonce ?? ""}'`,
        ],
        // sonner injects its stylesheet at run time; styles cannot run script, scripts stay nonce-bound.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        // No-JS form posts end in redirects to the SSO portal, which form-action also governs.
        formAction: formTargets,
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: config.publicUrl.startsWith("https:"),
    // Not helmet's no-referrer: with it browsers send `Origin: null` on no-JS form posts, which
    // React Router's same-origin check for actions rejects. same-origin keeps URLs private to us.
    referrerPolicy: { policy: "same-origin" },
  }),
);
app.use(compression());

const clientDir = fileURLToPath(new URL("build/client", portalDir));
app.use("/assets", express.static(`${clientDir}/assets`, { immutable: true, maxAge: "1y" }));
// Only the build's top-level files (the favicon …) are looked up on disk: a page request goes on
// without a file-system stat (issue 20: a sign-in page view's server time).
const topLevelFiles = new Set(
  readdirSync(clientDir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${entry.name}`),
);
const topLevelStatic = express.static(clientDir, { maxAge: "1h", index: false });
app.use((req: Request, res: Response, next: NextFunction) => {
  if (topLevelFiles.has(req.path)) topLevelStatic(req, res, next);
  else next();
});
app.get("/favicon.ico", (_req, res) => res.redirect(301, "/favicon.svg"));

app.use((req: Request, res: Response, next: NextFunction) => {
  if (metrics || tracing) answeredRoute.set(res, pageRoute(req.path));
  next();
});
app.use(
  createPageHandler({
    build,
    mode: process.env.NODE_ENV,
    // A page that fails while the identity service is starting or gone answers 503 "Starting…".
    identityReadiness,
    getLoadContext: (req, res) =>
      createLoadContext({
        nonce: requestMeta.get(res)?.nonce ?? "",
        forwardedFor: clientAddress(req),
        correlationId: requestMeta.get(res)?.correlationId,
        // Pages for an OAuth2 challenge add the client's origins (helmet set the policy already;
        // nothing is sent before the loaders have run).
        allowOrigins: (directive, origins) => widenPolicy(res, directive, origins),
        identityCalls: metrics,
        traceHeaders: requestSpans.get(res)?.headers,
        // A document's flow page may render the flow it creates (http/page-address.ts); React
        // Router's data requests (client navigations, `*.data`) are not rendered here.
        pageAddress: req.path.endsWith(".data") ? undefined : {},
      }),
  }),
);

const metricsServer =
  metrics && config.metricsPort !== undefined
    ? await startMetricsListener(metrics.registry, config.metricsPort)
    : undefined;
if (metricsServer) {
  log.info(`portal metrics on http://127.0.0.1:${config.metricsPort}/metrics`);
}
server.listen(config.port, config.host, () => {
  log.info(`portal listening on http://${config.host}:${config.port} (public ${config.publicUrl})`);
});

// Requests in flight finish (up to PORTAL_SHUTDOWN_GRACE_MS) while /health/ready answers 503.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    log.info({ signal, graceMs: config.shutdownGraceMs }, "portal draining");
    void drain.start().then(({ cut }) => {
      if (cut > 0) log.warn({ cut }, "portal stopped with requests still in flight");
      log.info("portal stopped");
      // Nothing else holds the process once both listeners are closed: it ends on its own.
      metricsServer?.close();
      metricsServer?.closeAllConnections();
      // The spans still batched go to the collector before the process ends.
      void tracing?.shutdown();
      process.exitCode = 0;
    });
  });
}

/**
 * The route label of an answered request: the page's route pattern, else what answered it, by a
 * fixed prefix. Never the path itself: anyone can ask for any path.
 */
function routeLabel(req: Request, res: Response): string {
  const page = answeredRoute.get(res);
  if (page) return page;
  const path = req.originalUrl.split("?")[0] ?? "";
  if (path.startsWith("/api/kratos/")) return "/api/kratos/*";
  if (path.startsWith("/assets/")) return "/assets/*";
  // Served by the static handler from build/client (favicon, fonts …): a fixed set of files.
  if (res.statusCode < 400 && (req.method === "GET" || req.method === "HEAD")) return "static";
  return "unmatched";
}
