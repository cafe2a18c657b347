import { STATUS_CODES } from "node:http";

/** The inner object of Ory's JSON error envelope (`genericError`). */
export interface GenericErrorBody {
  id?: string;
  code: number;
  status: string;
  request?: string;
  reason?: string;
  details?: Record<string, unknown>;
  message: string;
}

const defaultMessages: Record<number, string> = {
  400: "The request was malformed or contained invalid parameters",
  401: "The request could not be authorized",
  403: "The requested action was forbidden",
  404: "The requested resource could not be found",
  405: "The request method is not supported by the requested resource",
  409: "The resource could not be created due to a conflict",
  410: "The requested resource is no longer available because it has expired or is otherwise invalid.",
  413: "The request body is too large",
  415: "The request is using an unknown content type",
  500: "An internal server error occurred, please contact the system administrator",
};

export interface HerodotErrorOptions {
  id?: string;
  reason?: string;
  message?: string;
  details?: Record<string, unknown>;
  /** Extra top-level keys next to `error` (e.g. `use_flow_id`, `redirect_browser_to`). */
  extra?: Record<string, unknown>;
}

/** An error that is answered in Ory's herodot shape `{"error":{…}}`. */
export class HerodotError extends Error {
  readonly code: number;
  readonly id: string | undefined;
  readonly reason: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly extra: Record<string, unknown>;

  constructor(code: number, options: HerodotErrorOptions = {}) {
    super(options.message ?? defaultMessages[code] ?? STATUS_CODES[code] ?? "Error");
    this.name = "HerodotError";
    this.code = code;
    this.id = options.id;
    this.reason = options.reason;
    this.details = options.details;
    this.extra = options.extra ?? {};
  }

  get status(): string {
    return STATUS_CODES[this.code] ?? "Unknown";
  }

  /** The inner error object, with fields in the order herodot encodes them. */
  body(): GenericErrorBody {
    return {
      ...(this.id ? { id: this.id } : {}),
      code: this.code,
      status: this.status,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.details && Object.keys(this.details).length > 0 ? { details: this.details } : {}),
      message: this.message,
    };
  }

  envelope(): Record<string, unknown> {
    return { error: this.body(), ...this.extra };
  }
}

export const badRequest = (reason?: string, options: HerodotErrorOptions = {}) =>
  new HerodotError(400, { reason, ...options });
export const unauthorized = (reason?: string, options: HerodotErrorOptions = {}) =>
  new HerodotError(401, { reason, ...options });
export const forbidden = (reason?: string, options: HerodotErrorOptions = {}) =>
  new HerodotError(403, { reason, ...options });
export const conflict = (reason?: string, options: HerodotErrorOptions = {}) =>
  new HerodotError(409, { reason, ...options });
export const internalError = (reason?: string) => new HerodotError(500, { reason });

/** Kratos' answer for a row that does not exist (ory/x sqlcon.ErrNoRows). */
export const notFoundRow = () =>
  new HerodotError(404, { message: "Unable to locate the resource" });

/** Kratos' "410 Gone" base error (x/nosurfx ErrGone). */
export const gone = (options: HerodotErrorOptions = {}) => new HerodotError(410, options);
