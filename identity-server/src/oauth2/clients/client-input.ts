import { formatGoDuration, parseDuration } from "../../config/duration.ts";
import { badRequest } from "../hydra-error.ts";
import { lifespanFields, type Lifespans } from "./client-document.ts";

/** The writable fields of a client as an admin request carries them (all optional). */
export interface ClientInput extends Partial<Lifespans> {
  client_id?: string;
  client_name?: string;
  client_secret?: string;
  redirect_uris?: string[];
  grant_types?: string[];
  response_types?: string[];
  scope?: string;
  audience?: string[];
  owner?: string;
  policy_uri?: string;
  allowed_cors_origins?: string[];
  tos_uri?: string;
  client_uri?: string;
  logo_uri?: string;
  contacts?: string[];
  subject_type?: string;
  sector_identifier_uri?: string;
  jwks_uri?: string;
  jwks?: { keys: Record<string, unknown>[] };
  token_endpoint_auth_method?: string;
  token_endpoint_auth_signing_alg?: string;
  request_uris?: string[];
  request_object_signing_alg?: string;
  userinfo_signed_response_alg?: string;
  frontchannel_logout_uri?: string;
  frontchannel_logout_session_required?: boolean;
  post_logout_redirect_uris?: string[];
  backchannel_logout_uri?: string;
  backchannel_logout_session_required?: boolean;
  metadata?: unknown;
  access_token_strategy?: string;
  skip_consent?: boolean;
  skip_logout_consent?: boolean;
}

const stringFields = [
  "client_id",
  "client_name",
  "client_secret",
  "scope",
  "owner",
  "policy_uri",
  "tos_uri",
  "client_uri",
  "logo_uri",
  "subject_type",
  "sector_identifier_uri",
  "jwks_uri",
  "token_endpoint_auth_method",
  "token_endpoint_auth_signing_alg",
  "request_object_signing_alg",
  "userinfo_signed_response_alg",
  "frontchannel_logout_uri",
  "backchannel_logout_uri",
  "access_token_strategy",
] as const;

const listFields = [
  "redirect_uris",
  "grant_types",
  "response_types",
  "audience",
  "allowed_cors_origins",
  "contacts",
  "request_uris",
  "post_logout_redirect_uris",
] as const;

const booleanFields = [
  "frontchannel_logout_session_required",
  "backchannel_logout_session_required",
  "skip_consent",
  "skip_logout_consent",
] as const;

function decodeError(field: string, type: string): Error {
  return badRequest(`Unable to decode the request body: ${field} must be ${type}`);
}

/**
 * Reads a client from a decoded JSON body with Go's lenient rules: unknown fields are ignored,
 * null means "not set", a value of the wrong type is a 400.
 */
export function readClientInput(body: unknown): ClientInput {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw badRequest("Unable to decode the request body: the body must be a JSON object");
  }
  const source = body as Record<string, unknown>;
  const input: Record<string, unknown> = {};
  for (const field of stringFields) {
    const value = source[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") throw decodeError(field, "a string");
    input[field] = value;
  }
  for (const field of listFields) {
    const value = source[field];
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
      throw decodeError(field, "an array of strings");
    }
    input[field] = value;
  }
  for (const field of booleanFields) {
    const value = source[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== "boolean") throw decodeError(field, "a boolean");
    input[field] = value;
  }
  if (source.jwks !== undefined && source.jwks !== null) {
    const jwks = source.jwks as { keys?: unknown };
    if (typeof jwks !== "object" || Array.isArray(jwks) || !Array.isArray(jwks.keys)) {
      throw decodeError("jwks", "a JSON Web Key Set");
    }
    input.jwks = jwks;
  }
  if (source.metadata !== undefined) input.metadata = source.metadata;
  Object.assign(input, readLifespans(source));
  return input;
}

/** Lifespan fields (Go durations such as "1h30m"), normalised as Go prints them ("1h30m0s"). */
export function readLifespans(source: Record<string, unknown>): Partial<Lifespans> {
  const out: Partial<Lifespans> = {};
  for (const field of lifespanFields) {
    const value = source[field];
    if (value === undefined) continue;
    if (value === null) {
      out[field] = null;
      continue;
    }
    if (typeof value !== "string") throw decodeError(field, "a duration string");
    const ms = parseDuration(value);
    if (ms === undefined || ms < 0) throw decodeError(field, 'a duration such as "1h"');
    out[field] = formatGoDuration(ms);
  }
  return out;
}
