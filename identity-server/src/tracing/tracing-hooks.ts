import type { Server } from "node:http";
import type { FastifyInstance } from "fastify";
import type { Tracing } from "./tracing.ts";

const spans = new WeakMap<object, { end(status: number): void }>();

/** A span per request of a Fastify listener, named by its route pattern. */
export function traceFastify(app: FastifyInstance, tracing: Tracing, listener: string): void {
  // Callback style: an async hook costs a promise per request.
  app.addHook("onRequest", (request, _reply, done) => {
    spans.set(
      request,
      tracing.startRequest({
        method: request.method,
        route: request.routeOptions.url ?? "unmatched",
        headers: request.headers,
        correlationId: request.id,
        listener,
      }),
    );
    done();
  });
  app.addHook("onResponse", (request, reply, done) => {
    spans.get(request)?.end(reply.statusCode);
    done();
  });
}

/** A span per request of a plain Node listener (the OAuth2 public one). */
export function traceNodeListener(
  server: Server,
  tracing: Tracing,
  listener: string,
  routeOf: (url: string | undefined) => string,
): void {
  server.prependListener("request", (req, res) => {
    const header = req.headers["x-correlation-id"];
    const span = tracing.startRequest({
      method: req.method ?? "GET",
      route: routeOf(req.url),
      headers: req.headers,
      correlationId: typeof header === "string" ? header : undefined,
      listener,
    });
    res.once("finish", () => span.end(res.statusCode));
  });
}
