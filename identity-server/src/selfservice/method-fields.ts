import type { FieldSpec, FieldType } from "../http/flow-body.ts";

/**
 * A method's payload schema: the fields every Kratos self-service method body has (the CSRF token,
 * `method` and the object `transient_payload`), then the method's own, given by name and type, then
 * any further specs (trait paths, which carry `required`). Only these names are decoded.
 */
export function methodFields(
  own: Readonly<Record<string, FieldType>>,
  more: readonly FieldSpec[] = [],
): readonly FieldSpec[] {
  return [
    { name: "csrf_token", type: "string" },
    { name: "method", type: "string" },
    { name: "transient_payload", type: "object" },
    ...Object.entries(own).map(([name, type]) => ({ name, type })),
    ...more,
  ];
}
