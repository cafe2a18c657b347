import { invalidRequest } from "../hydra-error.ts";

// The JSON bodies of Hydra's accept and reject calls, read with Go's lenient rules: unknown fields
// are ignored, null means unset, a wrongly typed value is a 400.

/** Hydra's acceptOAuth2LoginRequest. */
export interface AcceptLoginBody {
  subject: string;
  remember?: boolean;
  /** Seconds; 0 means the server's authentication-session lifespan. */
  remember_for?: number;
  acr?: string;
  amr?: string[];
  context?: unknown;
  identity_provider_session_id?: string;
  extend_session_lifespan?: boolean;
  force_subject_identifier?: string;
}

/** Hydra's acceptOAuth2ConsentRequest. */
export interface AcceptConsentBody {
  grant_scope?: string[];
  grant_access_token_audience?: string[];
  remember?: boolean;
  /** Seconds; 0 means forever. */
  remember_for?: number;
  session?: {
    access_token?: Record<string, unknown>;
    id_token?: Record<string, unknown>;
  };
  context?: unknown;
}

/** Hydra's rejectOAuth2Request. */
export interface RejectBody {
  error?: string;
  error_description?: string;
  error_hint?: string;
  error_debug?: string;
  status_code?: number;
}

type Json = Record<string, unknown>;

function objectBody(body: unknown): Json {
  if (body === undefined || body === null) return {};
  if (typeof body !== "object" || Array.isArray(body)) {
    throw invalidRequest("Unable to decode body because: the body must be a JSON object");
  }
  return body as Json;
}

function typed<T>(
  body: Json,
  field: string,
  check: (value: unknown) => boolean,
  type: string,
): T | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!check(value)) {
    throw invalidRequest(`Unable to decode body because: ${field} must be ${type}`);
  }
  return value as T;
}

const isString = (v: unknown) => typeof v === "string";
const isBoolean = (v: unknown) => typeof v === "boolean";
const isSeconds = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;
// Go decodes a JSON null inside a []string as "" (Ory's own consent UI sends `grant_scope: [null]`
// when every scope is unticked), so null items are read as empty strings, not refused.
const isStringList = (v: unknown) =>
  Array.isArray(v) && v.every((item) => typeof item === "string" || item === null);
const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);

function stringList(body: Json, field: string): string[] | undefined {
  const list = typed<(string | null)[]>(body, field, isStringList, "an array of strings");
  return list?.map((item) => item ?? "");
}

export function readAcceptLoginBody(body: unknown): AcceptLoginBody {
  const json = objectBody(body);
  const subject = typed<string>(json, "subject", isString, "a string") ?? "";
  if (subject === "") throw invalidRequest("Field 'subject' must not be empty.");
  return {
    subject,
    remember: typed<boolean>(json, "remember", isBoolean, "a boolean"),
    remember_for: typed<number>(json, "remember_for", isSeconds, "a number of seconds"),
    acr: typed<string>(json, "acr", isString, "a string"),
    amr: stringList(json, "amr"),
    context: json.context ?? undefined,
    identity_provider_session_id: typed<string>(
      json,
      "identity_provider_session_id",
      isString,
      "a string",
    ),
    extend_session_lifespan: typed<boolean>(
      json,
      "extend_session_lifespan",
      isBoolean,
      "a boolean",
    ),
    force_subject_identifier: typed<string>(json, "force_subject_identifier", isString, "a string"),
  };
}

export function readAcceptConsentBody(body: unknown): AcceptConsentBody {
  const json = objectBody(body);
  const session = typed<Json>(json, "session", isObject, "an object") ?? {};
  return {
    grant_scope: stringList(json, "grant_scope"),
    grant_access_token_audience: stringList(json, "grant_access_token_audience"),
    remember: typed<boolean>(json, "remember", isBoolean, "a boolean"),
    remember_for: typed<number>(json, "remember_for", isSeconds, "a number of seconds"),
    session: {
      access_token: typed<Json>(session, "access_token", isObject, "an object"),
      id_token: typed<Json>(session, "id_token", isObject, "an object"),
    },
    context: json.context ?? undefined,
  };
}

export function readRejectBody(body: unknown): RejectBody {
  const json = objectBody(body);
  return {
    error: typed<string>(json, "error", isString, "a string"),
    error_description: typed<string>(json, "error_description", isString, "a string"),
    error_hint: typed<string>(json, "error_hint", isString, "a string"),
    error_debug: typed<string>(json, "error_debug", isString, "a string"),
    status_code: typed<number>(json, "status_code", isSeconds, "a number"),
  };
}

/** What the client receives for a rejected request (Hydra's RequestDeniedError.ToRFCError). */
export function rejectionResult(
  body: RejectBody,
  defaultError: string,
): { error: string; error_description: string } {
  const description = [body.error_description, body.error_hint].filter(Boolean).join(" ");
  return { error: body.error || defaultError, error_description: description };
}
