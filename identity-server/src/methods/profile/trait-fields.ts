import type { FieldSpec } from "../../http/flow-body.ts";
import type { TraitPath } from "../../identity/identity-schema.ts";

/**
 * The traits part of a payload schema: `traits` as one object and each trait path (`traits.email`)
 * with the JSON type it is coerced to. `required` marks the schema's required traits, so an empty
 * boolean or number is refused (registration); settings sends every trait optional.
 */
export function traitFields(paths: readonly TraitPath[], required: boolean): FieldSpec[] {
  return [
    { name: "traits", type: "object" },
    ...paths.map((p): FieldSpec => ({
      name: p.name,
      type:
        p.type === "boolean"
          ? "boolean"
          : p.type === "number" || p.type === "integer"
            ? "number"
            : "string",
      required: required && p.required,
    })),
  ];
}
