import { badRequest } from "../http/errors.ts";
import { isUuid } from "../http/uuid-param.ts";

/** The submit endpoints' `?flow=` id; Kratos answers 400 for a missing or garbled one. */
export function flowIdFromQuery(query: unknown): string {
  const value = (query as Record<string, unknown> | undefined)?.flow;
  if (typeof value !== "string" || !isUuid(value)) {
    throw badRequest("The flow query parameter is missing or malformed.");
  }
  return value.toLowerCase();
}
