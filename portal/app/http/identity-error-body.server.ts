import { STATUS_CODES } from "node:http";

// The messages Ory's herodot library gives these statuses (Kratos' generic error shape).
const messages: Record<number, string> = {
  400: "The request was malformed or contained invalid parameters",
  403: "The requested action was forbidden",
  413: "The request body is too large",
};

/**
 * An error in the identity service's own JSON shape (`{"error": {code, status, reason, message}}`),
 * for answers the portal gives on the service's behalf on its `/api/kratos` proxy.
 */
export function identityError(code: number, reason: string) {
  const status = STATUS_CODES[code] ?? "Error";
  return { error: { code, status, reason, message: messages[code] ?? status } };
}
