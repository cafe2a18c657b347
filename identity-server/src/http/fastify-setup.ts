import cookie from "@fastify/cookie";
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from "fastify";
import {
  answerClientError,
  clientErrorReason,
  clientErrorStatus,
  refuseConnect,
} from "./client-errors.ts";
import { HerodotError } from "./errors.ts";
import { apiListenerOptions, bodyLimitBytes } from "./api-listener-options.ts";
import type { ListenerLimits } from "./listener-limits.ts";
import { parseQueryString } from "./query-string.ts";
import { recordRoutes } from "./route-registry.ts";
import { baseSecurityHeaders } from "./security-headers.ts";
import { sendError } from "./send-error.ts";
import { compileTrustedProxies, cutForwardedForAtInvalid } from "./trusted-proxies.ts";

function routeMatches(pattern: string, path: string): boolean {
  const a = pattern.split("/");
  const b = path.split("/");
  return (
    a.length === b.length && a.every((segment, i) => segment.startsWith(":") || segment === b[i])
  );
}

/**
 * A Fastify instance that always answers in Ory's error shape: bodies are read raw (≤ 64 KiB) and
 * decoded by the handlers, unknown routes are 404, known routes with another method are 405.
 */
export async function createFastify(
  logger: FastifyBaseLogger,
  limits: ListenerLimits,
  // IDENTITY_TRUSTED_PROXIES; by default the portal, proxying from the same machine.
  trustedProxies: readonly string[] = ["loopback"],
): Promise<FastifyInstance> {
  const app = Fastify({
    ...apiListenerOptions(logger, limits),
    trustProxy: compileTrustedProxies(trustedProxies),
    routerOptions: { querystringParser: parseQueryString },
    // Requests the HTTP parser refuses, in Kratos' error shape (not Fastify's or an empty 400).
    clientErrorHandler: (error, socket) => {
      const status = clientErrorStatus(error);
      answerClientError(
        socket,
        error,
        new HerodotError(status, { reason: clientErrorReason(error) }).envelope(),
      );
    },
    // A URL the router cannot decode or a path parameter over its length limit.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void sendError(reply, new HerodotError(status, { reason: error.message }));
    },
  });
  refuseConnect(app.server, (status) =>
    new HerodotError(status, { reason: "The method CONNECT is not supported." }).envelope(),
  );
  await app.register(cookie);

  // Handlers decode bodies themselves so that a bad body becomes Kratos' answer, not Fastify's.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  // Callback style: an async hook costs a promise per request.
  app.addHook("onRequest", (request, reply, done) => {
    // Before anything reads request.ip (Fastify reads the raw header each time).
    cutForwardedForAtInvalid(request.raw.headers);
    reply.header("x-correlation-id", request.id);
    reply.headers(baseSecurityHeaders);
    done();
  });

  const routes = recordRoutes(app);

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    const known = routes.some((route) => routeMatches(route.url, path));
    if (known) {
      return sendError(
        reply,
        new HerodotError(405, {
          reason: `The method ${request.method} is not allowed for ${path}.`,
        }),
      );
    }
    return sendError(reply, new HerodotError(404));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HerodotError) return sendError(reply, error);
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      return sendError(
        reply,
        new HerodotError(413, {
          reason: `The request body exceeds the limit of ${bodyLimitBytes} bytes.`,
        }),
      );
    }
    const status = typeof error.statusCode === "number" ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, new HerodotError(status, { reason: error.message }));
    }
    request.log.error({ err: error }, "unhandled error");
    return sendError(reply, new HerodotError(500));
  });

  return app;
}
