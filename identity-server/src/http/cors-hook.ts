import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { appendVary, CorsPolicy, type CorsConfig } from "./cors.ts";

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Kratos' `serve.public.cors` on a Fastify listener. Register it before any other hook that
 * reads or answers requests (the CSRF cookie): like rs/cors in front of Kratos' router, a
 * preflight is answered 204 here and never reaches a flow, a session or a cookie. Disabled, it
 * adds nothing, as in Kratos.
 */
export function registerCors(
  app: FastifyInstance,
  config: CorsConfig,
  logger: FastifyBaseLogger,
): void {
  if (!config.enabled) return;
  const policy = new CorsPolicy(config);
  // Callback style: an async hook costs a promise per request.
  app.addHook("onRequest", (request, reply, done) => {
    const answer = policy.answer({
      method: request.method,
      origin: header(request.headers.origin),
      requestMethod: header(request.headers["access-control-request-method"]),
      requestHeaders: request.headers["access-control-request-headers"],
    });
    const vary = reply.getHeader("vary");
    reply.header("vary", appendVary(typeof vary === "string" ? vary : undefined, answer.vary));
    reply.headers(answer.headers);
    if (config.debug) {
      logger.info(
        { origin: request.headers.origin, method: request.method },
        `cors: ${answer.reason}`,
      );
    }
    if (answer.preflight) {
      void reply.code(204).send();
      return;
    }
    done();
  });
}
