import type { FastifyReply } from "fastify";
import { sendError } from "../http/send-error.ts";
import { HerodotError } from "../http/errors.ts";
import type { RateLimitedError } from "./rate-limited-error.ts";

/**
 * A refused attempt in strict mode (IDENTITY_ORY_EXTENSIONS=false), answered as Ory Network's
 * edge answers a request over its limits: HTTP 429 with `Retry-After` (whole seconds) and Ory's
 * error JSON, whatever the client asked for (a browser's form post too, no redirect), and the flow
 * left as it was. Kratos itself has no limits and no message for them (ours are 901xxxx).
 */
export function sendTooManyRequests(reply: FastifyReply, error: RateLimitedError): FastifyReply {
  reply.header("Retry-After", String(error.retryAfterSeconds));
  return sendError(
    reply,
    new HerodotError(429, {
      message: "The request was rate limited. Please try again later.",
    }),
  );
}
