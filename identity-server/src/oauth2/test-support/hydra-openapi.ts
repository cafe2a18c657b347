import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

// Validates response bodies against the vendored Hydra OpenAPI spec. The spec is generated from Go
// types, so a few of its statements do not match what Hydra itself sends; those are relaxed here:
// - `nullable: true` is OpenAPI 3.0 syntax; it becomes a JSON-schema `null` type.
// - `NullDuration` (client lifespans) is declared a string, but Go encodes an unset one as null.
// - `discriminator` and examples are informational.
// - Formats only Go knows (`int64`, …) are accepted as written.
// - Some operations declare herodot's `genericError` for errors, but Hydra's writer turns every
//   error into an RFC 6749 object (x.ErrorEnhancer); `errorOAuth2` is accepted there too.

const specUrl = new URL("../../../../vendor/ory/hydra-openapi.json", import.meta.url);

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
  if (nullable && typeof out.type === "string") out.type = [out.type, "null"];
  return out;
}

const spec = JSON.parse(readFileSync(specUrl, "utf8")) as Json;
const formats = new Set<string>();
const relaxed = relax(spec, formats) as {
  paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
};
const nullDuration = relaxed.components.schemas.NullDuration as Json;
nullDuration.type = ["string", "null"];

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
for (const format of formats) if (!ajv.formats[format]) ajv.addFormat(format, true);
ajv.addSchema({ components: relaxed.components }, "hydra");

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node === null || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    out[key] = key === "$ref" && typeof value === "string" ? `hydra${value}` : rewriteRefs(value);
  }
  return out;
}

function templateMatches(template: string, path: string): boolean {
  const a = template.split("/");
  const b = path.split("/");
  return (
    a.length === b.length && a.every((segment, i) => /^\{.+\}$/.test(segment) || segment === b[i])
  );
}

const validateOAuth2Error = ajv.compile({
  ...(rewriteRefs(relaxed.components.schemas.errorOAuth2) as Json),
  required: ["error", "error_description"],
});

const compiled = new Map<string, ValidateFunction | undefined>();

function responseSchema(
  method: string,
  path: string,
  status: number,
): ValidateFunction | undefined {
  const key = `${method} ${path} ${status}`;
  if (compiled.has(key)) return compiled.get(key);
  const template =
    Object.keys(relaxed.paths).find((t) => t === path) ??
    Object.keys(relaxed.paths).find((t) => templateMatches(t, path));
  const operation = template ? relaxed.paths[template]?.[method.toLowerCase()] : undefined;
  if (!operation) throw new Error(`The Hydra spec has no operation ${method} ${path}`);
  let response = operation.responses[String(status)] ?? operation.responses.default;
  if (!response) throw new Error(`The Hydra spec allows no ${status} for ${method} ${path}`);
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

/** Throws when `body` is not what the Hydra spec promises for this operation and status. */
export function assertMatchesHydraSpec(
  method: string,
  path: string,
  status: number,
  body: unknown,
): void {
  const validate = responseSchema(method, path, status);
  if (!validate) {
    if (body !== undefined)
      throw new Error(`${method} ${path} ${status}: the spec expects no body`);
    return;
  }
  if (!validate(body)) {
    if (status >= 400 && validateOAuth2Error(body)) return;
    throw new Error(
      `${method} ${path} ${status} does not match the Hydra spec: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}
