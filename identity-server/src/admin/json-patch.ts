// RFC 6902 JSON Patch with the rules Kratos applies to identities (ory/x jsonx.ApplyJSONPatch):
// only add, remove and replace; denied paths refused up front; a replace of an object member is
// treated as an add (so missing members may be "replaced"); an add creates missing parents.

export class JsonPatchError extends Error {
  override name = "JsonPatchError";
}

type Json = unknown;
type Container = Record<string, Json> | Json[];

interface Operation {
  op: string;
  path: string;
  value: Json;
  hasValue: boolean;
}

/** RFC 6901: "" is the document, "/a/b" its members; "~1" is "/" and "~0" is "~". */
function parsePointer(path: string): string[] {
  if (path === "") return [];
  if (!path.startsWith("/"))
    throw new JsonPatchError(`invalid JSON pointer: ${JSON.stringify(path)}`);
  return path
    .slice(1)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function isContainer(value: Json): value is Container {
  return value !== null && typeof value === "object";
}

function arrayIndex(key: string, length: number, allowEnd: boolean): number | undefined {
  if (allowEnd && key === "-") return length;
  if (!/^(0|[1-9][0-9]*)$/.test(key)) return undefined;
  const index = Number(key);
  return index < length || (allowEnd && index === length) ? index : undefined;
}

/** The last segment is an array index or "-" (jsonx's isElementAccess). */
function isElementAccess(path: string): boolean {
  const last = path.split("/").pop() ?? "";
  return last === "-" || /^[0-9]+$/.test(last);
}

/** Glob over "/"-separated segments: `*` is one segment, `**` any number (gobwas/glob's use here). */
function globMatches(pattern: string[], path: string[]): boolean {
  if (pattern.length === 0) return path.length === 0;
  const [head, ...rest] = pattern;
  if (head === "**") {
    for (let skip = 0; skip <= path.length; skip++) {
      if (globMatches(rest, path.slice(skip))) return true;
    }
    return false;
  }
  if (path.length === 0) return false;
  return (head === "*" || head === path[0]) && globMatches(rest, path.slice(1));
}

function readOperations(patch: Json): Operation[] {
  if (!Array.isArray(patch)) {
    throw new JsonPatchError("a JSON patch must be an array of operations");
  }
  return patch.map((raw, i): Operation => {
    if (!isContainer(raw) || Array.isArray(raw)) {
      throw new JsonPatchError(`operation ${i} is not a JSON object`);
    }
    const op = typeof raw.op === "string" ? raw.op : "";
    if (typeof raw.path !== "string") {
      throw new JsonPatchError(`error parsing patch operations: operation ${i} has no "path"`);
    }
    return { op, path: raw.path, value: raw.value, hasValue: "value" in raw };
  });
}

/** Walks to the parent of the pointer's target; `create` makes missing objects on the way (add). */
function parentOf(doc: Json, segments: string[], create: boolean, describe: string): Container {
  let current = doc;
  for (const key of segments.slice(0, -1)) {
    if (Array.isArray(current)) {
      const index = arrayIndex(key, current.length, false);
      if (index === undefined) throw new JsonPatchError(describe);
      current = current[index];
    } else if (isContainer(current)) {
      const object = current as Record<string, Json>;
      if (!(key in object) || !isContainer(object[key])) {
        if (!create || (key in object && object[key] !== null)) throw new JsonPatchError(describe);
        object[key] = {};
      }
      current = object[key];
    } else {
      throw new JsonPatchError(describe);
    }
  }
  if (!isContainer(current)) throw new JsonPatchError(describe);
  return current;
}

function apply(doc: Json, operation: Operation): void {
  const segments = parsePointer(operation.path);
  const key = segments[segments.length - 1];
  const op = operation.op;
  if (key === undefined)
    throw new JsonPatchError(`${op} operation on the whole document is not supported`);
  const missing = `${op} operation does not apply: doc is missing path: ${JSON.stringify(operation.path)}`;
  if ((op === "add" || op === "replace") && !operation.hasValue) {
    throw new JsonPatchError(`${op} operation has no "value"`);
  }
  const parent = parentOf(doc, segments, op === "add", missing);
  if (Array.isArray(parent)) {
    const index = arrayIndex(key, parent.length, op === "add");
    if (index === undefined) throw new JsonPatchError(missing);
    if (op === "add") parent.splice(index, 0, structuredClone(operation.value));
    else if (op === "replace") parent[index] = structuredClone(operation.value);
    else parent.splice(index, 1);
    return;
  }
  if (op === "remove") {
    if (!(key in parent)) throw new JsonPatchError(missing);
    delete parent[key];
    return;
  }
  if (op === "replace" && !(key in parent)) throw new JsonPatchError(missing);
  parent[key] = structuredClone(operation.value);
}

/**
 * Applies `patch` to a copy of `document`. `denied` are glob paths (e.g. `/credentials/oidc/**`,
 * matched case-insensitively) no operation may touch. Throws JsonPatchError with what went wrong.
 */
export function applyJsonPatch<T>(document: T, patch: Json, denied: readonly string[]): T {
  const operations = readOperations(patch);
  const deniedPatterns = denied.map((d) => parsePointer(d.toLowerCase()));
  for (const operation of operations) {
    if (!["add", "remove", "replace"].includes(operation.op)) {
      throw new JsonPatchError(`unsupported operation: ${operation.op}`);
    }
    const segments = parsePointer(operation.path.toLowerCase());
    if (deniedPatterns.some((pattern) => globMatches(pattern, segments))) {
      throw new JsonPatchError(`patch includes denied path: ${operation.path}`);
    }
    // Kratos is lenient: replacing a member that does not exist yet adds it.
    if (operation.op === "replace" && !isElementAccess(operation.path)) operation.op = "add";
  }
  const copy = structuredClone(document);
  for (const operation of operations) apply(copy, operation);
  return copy;
}
