import type { FastifyReply, FastifyRequest } from "fastify";
import { ValidationError } from "../ui/validation-error.ts";
import { HerodotError } from "./errors.ts";

/** Any error as the herodot object Kratos stores and sends. */
export function toHerodot(error: unknown): HerodotError {
  if (error instanceof HerodotError) return error;
  if (error instanceof ValidationError) return new HerodotError(400, { reason: error.message });
  return new HerodotError(500);
}

export function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  const herodot = toHerodot(error);
  if (herodot.code >= 500) reply.log.error({ err: error }, "request failed");
  if (herodot.id) reply.header("ory-error-id", herodot.id);
  return reply.code(herodot.code).type("application/json").send(herodot.envelope());
}

/**
 * Sends the error with another HTTP status than its own `code`, as herodot's WriteErrorCode does
 * (e.g. the 403 that carries the 400 `session_verified_address_required`).
 */
export function sendErrorWithStatus(
  reply: FastifyReply,
  status: number,
  error: HerodotError,
): FastifyReply {
  if (error.id) reply.header("ory-error-id", error.id);
  return reply.code(status).type("application/json").send(error.envelope());
}

/**
 * A route handler whose failures are answered by `sendError` (Kratos' shape, a ValidationError as
 * 400) rather than by the listener's error handler, which knows only HTTP errors.
 */
export function answeringErrors(
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  return async (request, reply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      return sendError(reply, error);
    }
  };
}
