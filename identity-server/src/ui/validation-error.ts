import type { ErrorObject } from "ajv";
import { uiText, type UiText } from "../text/messages.ts";

/** One message for the node named `field` ("" = a message for the whole form, `ui.messages`). */
export interface FieldMessage {
  field: string;
  message: UiText;
}

/**
 * A validation failure that belongs in the flow's UI (Kratos' schema.ValidationError): the flow is
 * re-rendered with the messages instead of answering an error.
 */
export class ValidationError extends Error {
  readonly messages: FieldMessage[];

  constructor(messages: FieldMessage[]) {
    super(messages.map((m) => m.message.text).join("; "));
    this.name = "ValidationError";
    this.messages = messages;
  }

  static of(field: string, message: UiText): ValidationError {
    return new ValidationError([{ field, message }]);
  }
}

/** "/traits/email" → "traits.email" (Kratos' JSON pointer to dotted form). */
function pointerToField(pointer: string): string {
  return pointer
    .replace(/^#?\/?/, "")
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function runeLength(value: unknown): number {
  return typeof value === "string" ? [...value].length : 0;
}

// Wrapper keywords whose inner errors ajv reports separately; Kratos only shows the inner ones.
const wrapperKeywords = new Set(["if", "anyOf", "oneOf", "allOf", "not", "$ref"]);

/** Turns ajv errors (compiled with `verbose: true`) into the messages Kratos would show. */
export function messagesFromAjv(errors: readonly ErrorObject[]): FieldMessage[] {
  const out: FieldMessage[] = [];
  for (const error of errors) {
    if (wrapperKeywords.has(error.keyword)) continue;
    const field = pointerToField(error.instancePath);
    const params = error.params as Record<string, unknown>;
    const data: unknown = error.data;
    switch (error.keyword) {
      case "required": {
        const missing = String(params.missingProperty);
        out.push({
          field: field === "" ? missing : `${field}.${missing}`,
          message: uiText(4000002, { property: missing }),
        });
        break;
      }
      case "minLength":
        out.push({
          field,
          message: uiText(4000003, {
            min_length: Number(params.limit),
            actual_length: runeLength(data),
          }),
        });
        break;
      case "maxLength":
        out.push({
          field,
          message: uiText(4000017, {
            max_length: Number(params.limit),
            actual_length: runeLength(data),
          }),
        });
        break;
      case "pattern":
        out.push({ field, message: uiText(4000004, { pattern: String(params.pattern) }) });
        break;
      case "format": {
        const format = String(params.format);
        const value = typeof data === "string" ? data : JSON.stringify(data);
        if (format === "email") out.push({ field, message: uiText(4000040, {}, { value }) });
        else if (format === "tel") out.push({ field, message: uiText(4000041, {}, { value }) });
        else
          out.push({
            field,
            message: uiText(4000001, {
              reason: `${JSON.stringify(value)} is not valid "${format}"`,
            }),
          });
        break;
      }
      case "type": {
        const allowed = Array.isArray(params.type)
          ? params.type.map(String)
          : [String(params.type)];
        const actual = jsonTypeOf(data);
        out.push({
          field,
          message: {
            ...uiText(4000026, {}, { allowed_types: allowed, actual_type: actual }),
            text: `expected ${allowed.join(" or ")}, but got ${actual}`,
          },
        });
        break;
      }
      case "additionalProperties":
        out.push({
          field,
          message: uiText(4000001, {
            reason: `additionalProperties ${JSON.stringify(params.additionalProperty)} not allowed`,
          }),
        });
        break;
      default:
        out.push({ field, message: uiText(4000001, { reason: error.message ?? "is invalid" }) });
    }
  }
  return out;
}
