import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

// Validates response bodies against the vendored Kratos OpenAPI spec. The spec is generated from Go
// types, so a few of its statements do not match what Kratos itself sends; those are relaxed here:
// - `nullable: true` is OpenAPI 3.0 syntax; it becomes a JSON-schema `null` type.
// - Go encodes nil slices as `null` (e.g. `continue_with` of a native login), so arrays may be null.
// - `genericError.details` says `additionalProperties: false`, yet Kratos fills it (CSRF `reject_reason`…).
// - `discriminator` is informational; `oneOf` alone decides.
// - The spec names one body per status, but a submit endpoint answers 400 with the flow *or*, when
//   there is no flow to render into (garbled id), with the generic error: both are accepted.
// - Formats only Go knows (`uuid4`, `int64`, …) are accepted as written.
// - `courierMessageType` lists "email" and "phone", but Kratos' MessageType encodes SMS as "sms".
// - GET /sessions/token-exchange answers a pending exchange 422 with the login or registration
//   flow (session/handler.go exchangeCode writes the flow), though the spec names errorGeneric.

const specUrl = new URL("../../../vendor/ory/kratos-openapi.json", import.meta.url);

type Json = Record<string, unknown>;

function relax(node: unknown, formats: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((item) => relax(item, formats));
  if (node === null || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === "discriminator" || key === "example" || key.startsWith("x-")) continue;
    out[key] = relax(value, formats);
  }
  if (typeof out.format === "string") formats.add(out.format);
  const nullable = out.nullable === true;
  delete out.nullable;
  if (typeof out.type === "string") {
    if (nullable || out.type === "array") out.type = [out.type, "null"];
  }
  return out;
}

const spec = JSON.parse(readFileSync(specUrl, "utf8")) as Json;
const formats = new Set<string>();
const relaxed = relax(spec, formats) as {
  paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
};
const genericError = relaxed.components.schemas.genericError as { properties: { details: Json } };
delete genericError.properties.details.additionalProperties;
const messageType = relaxed.components.schemas.courierMessageType as { enum: string[] };
messageType.enum = [...messageType.enum, "sms"];

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
for (const format of formats) if (!ajv.formats[format]) ajv.addFormat(format, true);
ajv.addSchema({ components: relaxed.components }, "kratos");

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node === null || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    out[key] = key === "$ref" && typeof value === "string" ? `kratos${value}` : rewriteRefs(value);
  }
  return out;
}

const compiled = new Map<string, ValidateFunction | undefined>();

function templateMatches(template: string, path: string): boolean {
  const a = template.split("/");
  const b = path.split("/");
  return (
    a.length === b.length && a.every((segment, i) => /^\{.+\}$/.test(segment) || segment === b[i])
  );
}

function responseSchema(
  method: string,
  path: string,
  status: number | "default",
): ValidateFunction | undefined {
  const key = `${method} ${path} ${status}`;
  if (compiled.has(key)) return compiled.get(key);
  const template = Object.keys(relaxed.paths).find((t) => templateMatches(t, path));
  const operation = template ? relaxed.paths[template]?.[method.toLowerCase()] : undefined;
  if (!operation) throw new Error(`The OpenAPI spec has no operation ${method} ${path}`);
  let response = operation.responses[String(status)] ?? operation.responses.default;
  if (!response) throw new Error(`The OpenAPI spec allows no ${status} for ${method} ${path}`);
  const ref = response.$ref;
  if (typeof ref === "string") {
    response = relaxed.components.responses[ref.split("/").pop() ?? ""] ?? {};
  }
  const schema = (response.content as Record<string, { schema?: Json }> | undefined)?.[
    "application/json"
  ]?.schema;
  const validate = schema ? ajv.compile(rewriteRefs(schema) as Json) : undefined;
  compiled.set(key, validate);
  return validate;
}

// Bodies Kratos sends beside the one the spec names, per "METHOD path status".
const alsoSent: Record<string, string[]> = {
  "GET /sessions/token-exchange 422": ["loginFlow", "registrationFlow"],
};

function matchesComponent(name: string, body: unknown): boolean {
  const validate = ajv.getSchema(`kratos#/components/schemas/${name}`);
  return validate ? validate(body) === true : false;
}

/** Throws when `body` is not what the spec promises for this operation and status. */
export function assertMatchesSpec(
  method: string,
  path: string,
  status: number,
  body: unknown,
): void {
  const extra = alsoSent[`${method} ${path} ${status}`];
  if (extra?.some((name) => matchesComponent(name, body))) return;
  const validate = responseSchema(method, path, status);
  if (!validate) {
    if (body !== undefined)
      throw new Error(`${method} ${path} ${status}: the spec expects no body`);
    return;
  }
  if (!validate(body)) {
    const isError = body !== null && typeof body === "object" && "error" in body;
    const fallback = isError ? responseSchema(method, path, "default") : undefined;
    if (fallback?.(body)) return;
    throw new Error(
      `${method} ${path} ${status} does not match the OpenAPI spec: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}
