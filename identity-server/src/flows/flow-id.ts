import { badRequest } from "../http/errors.ts";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}

/** The submit endpoints' `?flow=` id; Kratos answers 400 for a missing or garbled one. */
export function flowIdFromQuery(query: unknown): string {
  const value = (query as Record<string, unknown> | undefined)?.flow;
  if (typeof value !== "string" || !isUuid(value)) {
    throw badRequest("The flow query parameter is missing or malformed.");
  }
  return value.toLowerCase();
}
