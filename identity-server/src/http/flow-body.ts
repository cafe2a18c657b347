import type { FastifyRequest } from "fastify";
import { parseJson } from "./json-depth.ts";
import { badRequest, HerodotError } from "./errors.ts";

/** The JSON type a submitted field is coerced to (decoderx follows the payload schema's types). */
export type FieldType = "string" | "boolean" | "number" | "object";

export interface FieldSpec {
  name: string;
  type: FieldType;
  required?: boolean;
}

const supportedTypes = [
  "multipart/form-data",
  "application/x-www-form-urlencoded",
  "application/json",
];

function mediaType(request: FastifyRequest): string {
  return (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

function gjsonTypeName(value: unknown): string {
  if (value === null) return "Null";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return "Number";
  if (typeof value === "string") return "String";
  return "JSON";
}

/** The string a gjson result prints for a top-level JSON value. */
function gjsonString(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

async function rawValues(request: FastifyRequest): Promise<Map<string, string[]>> {
  const values = new Map<string, string[]>();
  const add = (key: string, value: string) => values.set(key, [...(values.get(key) ?? []), value]);

  if (request.method === "GET") {
    const query = new URL(request.url, "http://local").searchParams;
    for (const [key, value] of query) add(key, value);
    return values;
  }

  const body = request.body;
  const raw = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
  if (raw.length === 0) {
    throw badRequest(
      'Unable to decode HTTP Request Body because its HTTP Header "Content-Length" is zero.',
    );
  }
  const type = mediaType(request);
  if (!supportedTypes.includes(type)) {
    throw badRequest(
      `HTTP ${request.method} Request used unknown HTTP Header "Content-Type: ${request.headers["content-type"] ?? ""}", only [${supportedTypes.join(" ")}] are supported.`,
    );
  }
  if (type === "application/json") {
    let parsed: unknown;
    try {
      parsed = parseJson(raw.toString("utf8"));
    } catch (error) {
      throw new HerodotError(400, {
        reason: "Unable to decode form as JSON.",
        message: error instanceof Error ? error.message : "invalid JSON",
      });
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw badRequest(
        `Expected JSON sent in request body to be an object but got: ${gjsonTypeName(parsed)}`,
      );
    }
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      add(key, gjsonString(value));
    }
    return values;
  }
  if (type === "application/x-www-form-urlencoded") {
    for (const [key, value] of new URLSearchParams(raw.toString("utf8"))) add(key, value);
    return values;
  }
  let form: FormData;
  try {
    // A copy as a plain Uint8Array: also a body under the DOM's types (the portal's tests start
    // this server in-process and type-check it with them).
    form = await new Response(new Uint8Array(raw), {
      headers: { "content-type": request.headers["content-type"] ?? "" },
    }).formData();
  } catch (error) {
    throw badRequest(
      `Unable to decode HTTP ${request.method} form body: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  for (const [key, value] of form) if (typeof value === "string") add(key, value);
  return values;
}

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const segments = dotted.split(".");
  let current = target;
  segments.slice(0, -1).forEach((segment) => {
    const next = current[segment];
    if (next === null || typeof next !== "object" || Array.isArray(next)) current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  });
  current[segments[segments.length - 1] ?? ""] = value;
}

/**
 * A self-service submission, read from the request once and then decoded as often as the flow
 * needs: each strategy picks its own fields, the way Kratos' decoderx does for form posts and for
 * JSON in "form format": only fields the payload schema knows are kept, empty strings count as
 * missing, booleans and numbers are parsed, objects are taken as raw JSON (so `{"traits":{…}}` and
 * `{"traits.email":…}` both work). Reading throws a 400 HerodotError for an undecodable body;
 * `fields` throws one for a value of the wrong type.
 */
export class FlowBody {
  private readonly values: ReadonlyMap<string, readonly string[]>;

  private constructor(values: ReadonlyMap<string, readonly string[]>) {
    this.values = values;
  }

  /** Reads and parses the request's body (its query for a GET); the only read a request needs. */
  static async read(request: FastifyRequest): Promise<FlowBody> {
    return new FlowBody(await rawValues(request));
  }

  /** A submission of plain values, as a JSON body would send them (for tests and internal calls). */
  static of(values: Record<string, unknown>): FlowBody {
    return new FlowBody(new Map(Object.entries(values).map(([key, v]) => [key, [gjsonString(v)]])));
  }

  /** The submitted string (the last one sent under the name), undefined when missing or empty. */
  string(name: string): string | undefined {
    const list = this.values.get(name);
    const last = list?.[list.length - 1];
    return last === undefined || last === "" ? undefined : last;
  }

  /** The submission decoded for one payload schema: its fields, coerced to their types. */
  fields(fields: readonly FieldSpec[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, list] of this.values) {
      const field = fields.find((f) => f.name === key);
      if (!field) continue;
      decodeField(out, field, key, list[list.length - 1] ?? "");
    }
    // Like decoderx, object fields are always present (empty) so their schema is always checked.
    for (const field of fields) {
      if (field.type === "object" && !field.name.includes(".") && out[field.name] === undefined) {
        out[field.name] = {};
      }
    }
    return out;
  }
}

function decodeField(out: Record<string, unknown>, field: FieldSpec, key: string, last: string) {
  switch (field.type) {
    case "string":
      if (last !== "") setPath(out, key, last);
      break;
    case "boolean": {
      if (last === "" && !field.required) break;
      const text = last === "" ? "false" : last.toLowerCase();
      if (!["1", "t", "true", "0", "f", "false"].includes(text)) {
        throw badRequest("Expected value to be a boolean.", {
          details: { name: key, value: last },
        });
      }
      setPath(out, key, ["1", "t", "true"].includes(text));
      break;
    }
    case "number": {
      if (last === "" && !field.required) break;
      const number = Number(last === "" ? "0" : last);
      if (!Number.isFinite(number)) {
        throw badRequest("Expected value to be a number.", {
          details: { name: key, value: last },
        });
      }
      setPath(out, key, number);
      break;
    }
    case "object": {
      if (last === "" && !field.required) break;
      try {
        setPath(out, key, parseJson(last));
      } catch {
        throw badRequest(
          `Unable to type assert values from HTTP Post Body: invalid JSON in ${key}`,
        );
      }
      break;
    }
  }
}

/** Reads the submission and decodes it for one payload schema (flows that decode only once). */
export async function decodeFlowBody(
  request: FastifyRequest,
  fields: readonly FieldSpec[],
): Promise<Record<string, unknown>> {
  return (await FlowBody.read(request)).fields(fields);
}
