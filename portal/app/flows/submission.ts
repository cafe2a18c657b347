import { isRecord } from "./node-guards.ts";

/**
 * Levels a posted field name may nest ("traits.name.first" is three). Deeper names are dropped:
 * the identity service's schemas need few, and a name of thousands of dots (under the body
 * limit) would otherwise build an object too deep to serialise.
 */
const maxFieldDepth = 8;

/**
 * A posted form as the JSON object the identity service expects: dotted names become nested
 * objects ("traits.email" → { traits: { email } }), portal-only fields are left out, files are
 * ignored. The clicked submit button arrives as an ordinary field (e.g. method=password).
 */
export function formToJson(form: FormData, omit: readonly string[] = []): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of form) {
    if (typeof value !== "string" || omit.includes(name)) continue;
    setPath(body, name, value);
  }
  return body;
}

function setPath(target: Record<string, unknown>, name: string, value: string): void {
  const path = name.split(".", maxFieldDepth + 1);
  if (path.length > maxFieldDepth) return;
  if (path.some((key) => key === "" || key === "__proto__" || key === "constructor")) return;
  let node = target;
  for (const key of path.slice(0, -1)) {
    const existing = node[key];
    const child = isRecord(existing) ? existing : {};
    node[key] = child;
    node = child;
  }
  node[path[path.length - 1] ?? ""] = value;
}

export function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === "string" ? value : undefined;
}
