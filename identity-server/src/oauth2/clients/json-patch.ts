import { isDeepStrictEqual } from "node:util";

// RFC 6902 JSON Patch over plain JSON values, for PATCH /admin/clients/{id}. Errors are thrown as
// JsonPatchError with a message that names the failing operation.

export class JsonPatchError extends Error {
  override name = "JsonPatchError";
}

interface Operation {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

type Container = Record<string, unknown> | unknown[];

function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new JsonPatchError(`invalid JSON pointer "${pointer}"`);
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function isContainer(value: unknown): value is Container {
  return value !== null && typeof value === "object";
}

function arrayIndex(array: unknown[], token: string, allowEnd: boolean): number {
  if (allowEnd && token === "-") return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new JsonPatchError(`invalid array index "${token}"`);
  const index = Number(token);
  if (index > array.length || (!allowEnd && index === array.length)) {
    throw new JsonPatchError(`array index ${token} is out of bounds`);
  }
  return index;
}

/** The container holding the pointer's last token, and that token. */
function locate(document: unknown, pointer: string): { parent: Container; key: string } {
  const tokens = parsePointer(pointer);
  const key = tokens.pop();
  if (key === undefined) throw new JsonPatchError("the whole document cannot be patched");
  let node = document;
  for (const token of tokens) {
    if (Array.isArray(node)) node = node[arrayIndex(node, token, false)];
    else if (isContainer(node) && Object.hasOwn(node, token))
      node = (node as Record<string, unknown>)[token];
    else throw new JsonPatchError(`path "${pointer}" does not exist`);
  }
  if (!isContainer(node)) throw new JsonPatchError(`path "${pointer}" does not exist`);
  return { parent: node, key };
}

function read(document: unknown, pointer: string): unknown {
  const { parent, key } = locate(document, pointer);
  if (Array.isArray(parent)) return parent[arrayIndex(parent, key, false)];
  if (!Object.hasOwn(parent, key)) throw new JsonPatchError(`path "${pointer}" does not exist`);
  return parent[key];
}

function remove(document: unknown, pointer: string): unknown {
  const { parent, key } = locate(document, pointer);
  if (Array.isArray(parent)) return parent.splice(arrayIndex(parent, key, false), 1)[0];
  if (!Object.hasOwn(parent, key)) throw new JsonPatchError(`path "${pointer}" does not exist`);
  const value = parent[key];
  delete parent[key];
  return value;
}

function add(document: unknown, pointer: string, value: unknown): void {
  const { parent, key } = locate(document, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true), 0, value);
  else parent[key] = value;
}

function replace(document: unknown, pointer: string, value: unknown): void {
  const { parent, key } = locate(document, pointer);
  if (Array.isArray(parent)) parent[arrayIndex(parent, key, false)] = value;
  else if (Object.hasOwn(parent, key)) parent[key] = value;
  else throw new JsonPatchError(`path "${pointer}" does not exist`);
}

function readOperations(patch: unknown): Operation[] {
  if (!Array.isArray(patch))
    throw new JsonPatchError("a JSON Patch must be an array of operations");
  return patch.map((entry, i) => {
    const op = entry as Partial<Operation> | null;
    if (!op || typeof op.op !== "string" || typeof op.path !== "string") {
      throw new JsonPatchError(`operation ${i} needs "op" and "path"`);
    }
    return op as Operation;
  });
}

/** Applies `patch` to a copy of `document`; `frozen` paths may not be touched. */
export function applyJsonPatch<T>(document: T, patch: unknown, frozen: string[] = []): T {
  const copy = structuredClone(document) as unknown;
  for (const op of readOperations(patch)) {
    for (const path of [op.path, op.from]) {
      if (path !== undefined && frozen.some((f) => path === f || path.startsWith(`${f}/`))) {
        throw new JsonPatchError(`the path "${path}" cannot be changed`);
      }
    }
    const value = structuredClone(op.value);
    switch (op.op) {
      case "add":
        if (!("value" in op)) throw new JsonPatchError(`"add" at ${op.path} needs a value`);
        add(copy, op.path, value);
        break;
      case "remove":
        remove(copy, op.path);
        break;
      case "replace":
        if (!("value" in op)) throw new JsonPatchError(`"replace" at ${op.path} needs a value`);
        replace(copy, op.path, value);
        break;
      case "move":
        if (op.from === undefined) throw new JsonPatchError(`"move" to ${op.path} needs "from"`);
        add(copy, op.path, remove(copy, op.from));
        break;
      case "copy":
        if (op.from === undefined) throw new JsonPatchError(`"copy" to ${op.path} needs "from"`);
        add(copy, op.path, structuredClone(read(copy, op.from)));
        break;
      case "test":
        if (!isDeepStrictEqual(read(copy, op.path), op.value)) {
          throw new JsonPatchError(`test at ${op.path} failed`);
        }
        break;
      default:
        throw new JsonPatchError(`unknown operation "${op.op}"`);
    }
  }
  return copy as T;
}
