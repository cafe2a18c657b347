import { isRecord } from "./node-guards.ts";

/**
 * A posted form as the JSON object the identity service expects: dotted names become nested
 * objects ("traits.email" → { traits: { email } }), portal-only fields are left out, files are
 * ignored. The clicked submit button arrives as an ordinary field (e.g. method=password).
 */
export function formToJson(form: FormData, omit: readonly string[] = []): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of form) {
    if (typeof value !== "string" || omit.includes(name)) continue;
    setPath(body, name.split("."), value);
  }
  return body;
}

function setPath(target: Record<string, unknown>, path: string[], value: string): void {
  const [head, ...rest] = path;
  if (head === undefined || head === "" || head === "__proto__" || head === "constructor") return;
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const existing = target[head];
  const child = isRecord(existing) ? existing : {};
  target[head] = child;
  setPath(child, rest, value);
}

export function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === "string" ? value : undefined;
}
