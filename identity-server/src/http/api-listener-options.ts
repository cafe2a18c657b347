import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { fastifyListenerOptions, type ListenerLimits } from "./listener-limits.ts";
import { redactingLogger } from "./log-redaction.ts";
import { originForm } from "./request-target.ts";

export const bodyLimitBytes = 64 * 1024;

/**
 * The Fastify options the public and the OAuth2 admin listeners share: logs without secrets, bodies
 * up to 64 KiB, the listener timeouts, a correlation id per request (the caller's
 * `x-correlation-id`, or a fresh one) and absolute-form request targets routed by their path.
 */
export function apiListenerOptions(logger: FastifyBaseLogger, limits: ListenerLimits) {
  return {
    loggerInstance: redactingLogger(logger),
    bodyLimit: bodyLimitBytes,
    ...fastifyListenerOptions(limits),
    requestIdHeader: "x-correlation-id",
    genReqId: () => randomUUID(),
    rewriteUrl: (request: { url?: string }) => originForm(request.url ?? "/"),
  };
}
