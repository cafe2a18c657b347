import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import type { AnySchemaObject } from "ajv";
import addFormats from "ajv-formats";

/**
 * Ory's own configuration schemas (vendor/ory/config-schemas/), compiled for the tests that check
 * the Kratos and Hydra files in docs/ory/ and docs/deploy/ against them.
 */
const schemas = new URL("../../../vendor/ory/config-schemas/", import.meta.url);
const readJson = (name: string) =>
  JSON.parse(readFileSync(new URL(name, schemas), "utf8")) as AnySchemaObject;

/** The ory/x schemas, under the ids Kratos and Hydra register them by in code (configx, otelx). */
const oryIds: Record<string, string> = {
  "ory://cors-config": "ory-x-cors.schema.json",
  "ory://serve-config": "ory-x-serve.schema.json",
  "ory://tls-config": "ory-x-tls.schema.json",
  "ory://tracing-config": "ory-x-otelx.schema.json",
};

const dotAtom = /^[\w!#$%&'*+/=?^`{|}~-]+(\.[\w!#$%&'*+/=?^`{|}~-]+)*$/;
const hostLabel = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i;

/**
 * "email" as Ory's validator (github.com/ory/jsonschema formats.go isEmail) reads it: a local
 * part of at most 64 characters at a host name, any host name. ajv-formats wants a dot in the
 * domain and would refuse the embedded server's default sender, no-reply@localhost.
 */
function isOryEmail(value: string): boolean {
  const at = value.lastIndexOf("@");
  if (at < 1 || value.length > 254 || at > 64) return false;
  const labels = value
    .slice(at + 1)
    .replace(/\.$/, "")
    .split(".");
  return dotAtom.test(value.slice(0, at)) && labels.every((label) => hostLabel.test(label));
}

function validator(file: string) {
  // Ory's schemas use annotations ajv does not know ("ory.sh/…", "examples" in odd places).
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat("email", isOryEmail);
  for (const [id, name] of Object.entries(oryIds)) {
    ajv.addSchema({ ...readJson(name), $id: id });
  }
  return ajv.compile(readJson(file));
}

export const validateKratos = validator("kratos-config.schema.json");
export const validateHydra = validator("hydra-config.schema.json");

/** The schema's complaints about a configuration, as "<path> <message>" lines; none when valid. */
export function errorsOf(validate: typeof validateKratos, config: unknown): string[] {
  return validate(config)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
