import type { FastifyRequest } from "fastify";
import { parseJson } from "./json-depth.ts";
import { HerodotError } from "./errors.ts";

/** Parses a JSON request body; malformed JSON is a 400 whose message is the parser's error. */
export function parseJsonBody(request: FastifyRequest): unknown {
  const raw = Buffer.isBuffer(request.body) ? request.body.toString("utf8") : "";
  try {
    return parseJson(raw === "" ? "null" : raw);
  } catch (error) {
    throw new HerodotError(400, {
      message: error instanceof Error ? error.message : "invalid JSON",
    });
  }
}
