import { badRequest } from "./errors.ts";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}

/**
 * A UUID path parameter, lower-cased; anything else is Kratos' 400 whose message is the error of
 * Go's uuid parser (the session endpoints' "could not parse UUID").
 */
export function uuidParam(value: string): string {
  if (isUuid(value)) return value.toLowerCase();
  const message =
    value.length === 36
      ? `uuid: incorrect UUID format in string ${JSON.stringify(value)}`
      : `uuid: incorrect UUID length ${value.length} in string ${JSON.stringify(value)}`;
  throw badRequest(undefined, { message });
}

/** Go's strconv.ParseBool for the `active` filter: undefined when absent, 400 when unreadable. */
export function activeFilter(value: string | undefined): boolean | undefined {
  if (value === undefined || value === "") return undefined;
  if (["1", "t", "T", "TRUE", "true", "True"].includes(value)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value)) return false;
  throw badRequest(undefined, { message: "could not parse parameter active" });
}
