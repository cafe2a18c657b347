import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

// Loads a vendored Ory OpenAPI spec (Kratos, Hydra) for checking response bodies. Both specs are
// generated from Go types, so the relaxations they share are made here:
// - `nullable: true` is OpenAPI 3.0 syntax; it becomes a JSON-schema `null` type.
// - `discriminator`, examples and `x-` extensions are informational; `oneOf` alone decides.
// - Formats only Go knows (`uuid4`, `int64`, …) are accepted as written.
// What one spec alone gets wrong is relaxed by its caller (`relaxSchema`, `patch`, `alsoAccepted`).

type Json = Record<string, unknown>;

export interface SpecOptions {
  /** Where the vendored spec lies. */
  url: URL;
  /** How messages name the spec ("OpenAPI spec", "Hydra spec"). */
  label: string;
  /** Called on every schema node after the shared relaxations. */
  relaxSchema?(node: Json): void;
  /** Called once with the relaxed components, to correct single schemas. */
  patch?(components: { schemas: Record<string, Json> }): void;
}

interface RelaxedSpec {
  paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
}

export interface OpenApiSpec {
  /** A validator for a component schema, optionally with more keywords (e.g. `required`). */
  component(name: string, extra?: Json): ValidateFunction;
  /** The validator for the body the spec names for this response, undefined when it names none. */
  response(method: string, path: string, status: number | "default"): ValidateFunction | undefined;
  /**
   * Throws when `body` is not what the spec promises for this operation and status, unless
   * `alsoAccepted` (a documented exception of the caller) accepts it.
   */
  assertResponse(
    method: string,
    path: string,
    status: number,
    body: unknown,
    alsoAccepted?: () => boolean,
  ): void;
}

function templateMatches(template: string, path: string): boolean {
  const a = template.split("/");
  const b = path.split("/");
  return (
    a.length === b.length && a.every((segment, i) => /^\{.+\}$/.test(segment) || segment === b[i])
  );
}

export function loadOpenApiSpec(options: SpecOptions): OpenApiSpec {
  const { label } = options;
  const formats = new Set<string>();
  const relax = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(relax);
    if (node === null || typeof node !== "object") return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === "discriminator" || key === "example" || key.startsWith("x-")) continue;
      out[key] = relax(value);
    }
    if (typeof out.format === "string") formats.add(out.format);
    const nullable = out.nullable === true;
    delete out.nullable;
    if (nullable && typeof out.type === "string") out.type = [out.type, "null"];
    options.relaxSchema?.(out);
    return out;
  };
  const relaxed = relax(JSON.parse(readFileSync(options.url, "utf8"))) as RelaxedSpec;
  options.patch?.(relaxed.components);

  // Component refs are resolved against the spec registered under this id.
  const id = "spec";
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  for (const format of formats) if (!ajv.formats[format]) ajv.addFormat(format, true);
  ajv.addSchema({ components: relaxed.components }, id);

  const rewriteRefs = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewriteRefs);
    if (node === null || typeof node !== "object") return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node as Json)) {
      out[key] = key === "$ref" && typeof value === "string" ? `${id}${value}` : rewriteRefs(value);
    }
    return out;
  };

  const compiled = new Map<string, ValidateFunction | undefined>();
  const response = (
    method: string,
    path: string,
    status: number | "default",
  ): ValidateFunction | undefined => {
    const key = `${method} ${path} ${status}`;
    if (compiled.has(key)) return compiled.get(key);
    const templates = Object.keys(relaxed.paths);
    const template =
      templates.find((t) => t === path) ?? templates.find((t) => templateMatches(t, path));
    const operation = template ? relaxed.paths[template]?.[method.toLowerCase()] : undefined;
    if (!operation) throw new Error(`The ${label} has no operation ${method} ${path}`);
    let body = operation.responses[String(status)] ?? operation.responses.default;
    if (!body) throw new Error(`The ${label} allows no ${status} for ${method} ${path}`);
    const ref = body.$ref;
    if (typeof ref === "string") {
      body = relaxed.components.responses[ref.split("/").pop() ?? ""] ?? {};
    }
    const schema = (body.content as Record<string, { schema?: Json }> | undefined)?.[
      "application/json"
    ]?.schema;
    const validate = schema ? ajv.compile(rewriteRefs(schema) as Json) : undefined;
    compiled.set(key, validate);
    return validate;
  };

  return {
    component: (name, extra) =>
      ajv.compile({ ...(rewriteRefs(relaxed.components.schemas[name]) as Json), ...extra }),
    response,
    assertResponse(method, path, status, body, alsoAccepted) {
      const validate = response(method, path, status);
      if (!validate) {
        if (body !== undefined)
          throw new Error(`${method} ${path} ${status}: the spec expects no body`);
        return;
      }
      if (!validate(body)) {
        if (alsoAccepted?.()) return;
        throw new Error(
          `${method} ${path} ${status} does not match the ${label}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
        );
      }
    },
  };
}
