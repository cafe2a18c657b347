// Hydra answers every admin error as an RFC 6749 error object `{error, error_description}`
// (its herodot writer runs errors through fosite's RFC6749Error). Protocol errors carry an OAuth2
// code (`invalid_request`…) and fosite's fixed description followed by a hint; generic errors carry
// herodot's message as `error` and the reason as `error_description`.

export interface HydraErrorBody {
  error: string;
  error_description: string;
}

export class HydraError extends Error {
  readonly status: number;
  readonly error: string;
  readonly description: string;

  constructor(status: number, error: string, description: string) {
    super(`${error}: ${description}`);
    this.name = "HydraError";
    this.status = status;
    this.error = error;
    this.description = description;
  }

  body(): HydraErrorBody {
    // fosite replaces double quotes in descriptions with single quotes.
    return { error: this.error, error_description: this.description.replaceAll('"', "'") };
  }
}

const fositeDescriptions = {
  invalid_request:
    "The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.",
  invalid_client_metadata:
    "The value of one of the Client Metadata fields is invalid and the server has rejected this request. Note that an Authorization Server MAY choose to substitute a valid value for any requested parameter of a Client's Metadata.",
  invalid_redirect_uri: "The value of one or more redirect_uris is invalid.",
  missing_required_parameter:
    "One of the required parameters is missing. Check your request parameters.",
  request_unauthorized: "The request could not be authorized.",
} as const;

type FositeCode = keyof typeof fositeDescriptions;

/** A fosite protocol error: its fixed description plus an optional hint. */
export function fositeError(code: FositeCode, hint?: string, status = 400): HydraError {
  const description = hint ? `${fositeDescriptions[code]} ${hint}` : fositeDescriptions[code];
  return new HydraError(status, code, description);
}

export const invalidRequest = (hint?: string) => fositeError("invalid_request", hint);
export const invalidClientMetadata = (hint?: string) =>
  fositeError("invalid_client_metadata", hint);
export const invalidRedirectUri = (hint?: string) => fositeError("invalid_redirect_uri", hint);

/** herodot's generic errors, as Hydra's error enhancer turns them into RFC 6749 objects. */
export const badRequest = (reason = "") =>
  new HydraError(400, "The request was malformed or contained invalid parameters", reason);
export const unauthorized = (reason = "") =>
  new HydraError(401, "The request could not be authorized", reason);
export const notFound = (reason = "") =>
  new HydraError(404, "Unable to locate the resource", reason);
/** Hydra's x.ErrNotFound, used for unknown challenges. */
export const resourceNotFound = () =>
  new HydraError(404, "Not Found", "Unable to locate the requested resource");
export const conflict = (reason = "") =>
  new HydraError(
    409,
    "Unable to insert or update resource because a resource with that value exists already",
    reason,
  );
export const internalError = (reason = "") =>
  new HydraError(
    500,
    "An internal server error occurred, please contact the system administrator",
    reason,
  );

export function isHydraError(error: unknown): error is HydraError {
  return error instanceof HydraError;
}
