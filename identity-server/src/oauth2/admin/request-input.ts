import type { FastifyRequest } from "fastify";
import { parseJson } from "../../http/json-depth.ts";
import { badRequest, invalidRequest, type HydraError } from "../hydra-error.ts";

function rawBody(request: FastifyRequest): string {
  return Buffer.isBuffer(request.body) ? request.body.toString("utf8") : "";
}

/** The JSON body; malformed JSON becomes the error `onError` builds from the parser's message. */
export function jsonBody(
  request: FastifyRequest,
  onError: (message: string) => HydraError = (message) =>
    badRequest(`Unable to decode the request body: ${message}`),
): unknown {
  const raw = rawBody(request).trim();
  if (raw === "") return undefined;
  try {
    return parseJson(raw);
  } catch (error) {
    throw onError(error instanceof Error ? error.message : "invalid JSON");
  }
}

/** Malformed accept/reject bodies are `invalid_request`, as in Hydra's consent handler. */
export const decodeBodyError = (message: string) =>
  invalidRequest(`Unable to decode body because: ${message}`);

/** An application/x-www-form-urlencoded body. */
export function formBody(request: FastifyRequest): URLSearchParams {
  return new URLSearchParams(rawBody(request));
}

export function queryOf(request: FastifyRequest): Record<string, unknown> {
  return request.query as Record<string, unknown>;
}

/** Hydra reads `<kind>_challenge`, or plain `challenge`. */
export function challengeFrom(
  request: FastifyRequest,
  kind: "login" | "consent" | "logout",
): string {
  const query = queryOf(request);
  const value = query[`${kind}_challenge`] ?? query.challenge;
  if (typeof value !== "string" || value === "") {
    throw invalidRequest("Query parameter 'challenge' is not defined but should have been.");
  }
  return value;
}
