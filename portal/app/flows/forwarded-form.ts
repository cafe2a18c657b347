import { formToJson } from "./submission.ts";

/**
 * Fields a person types where spaces around the value mean nothing (an address or code pasted
 * with a trailing space): the one change the portal makes to what is forwarded.
 */
const trimmedFields = ["identifier", "code", "totp_code", "lookup_secret"] as const;

/** The identity service's yes/no fields (its buttons and the trust checkbox). */
const booleanFields = [
  "trust_device",
  "totp_unlink",
  "lookup_secret_reveal",
  "lookup_secret_regenerate",
  "lookup_secret_confirm",
  "lookup_secret_disable",
] as const;

/**
 * A yes/no field as the identity service reads it (Kratos: 1, t, true in any case are yes; 0, f,
 * false no; anything else is refused). Undefined for a value it would refuse.
 */
function postedBoolean(value: string): "true" | "false" | undefined {
  const text = value.toLowerCase();
  if (["1", "t", "true"].includes(text)) return "true";
  if (["0", "f", "false"].includes(text)) return "false";
  return undefined;
}

/**
 * A posted flow form as the identity service receives it from the portal: the fields as the
 * browser posted them (the clicked button's name=value among them), as Kratos' own UIs post
 * theirs, so the identity service decides by `method`, or by a button's own field, which
 * strategy answers. Left out: the portal's own fields (`portalFields`, which the identity service
 * must never see) and empty fields, which the identity service reads as missing anyway. Yes/no
 * fields go on spelled "true" or "false", so that what the portal reads from them (which card,
 * whether a confirmation is due) is what the identity service will do with them.
 */
export function forwardedForm(
  form: FormData,
  portalFields: readonly string[],
): Record<string, unknown> {
  const fields = formToJson(form, portalFields);
  for (const name of trimmedFields) {
    const value = fields[name];
    if (typeof value === "string") fields[name] = value.trim();
  }
  for (const name of booleanFields) {
    const value = fields[name];
    if (typeof value === "string" && value !== "") fields[name] = postedBoolean(value) ?? value;
  }
  for (const [name, value] of Object.entries(fields)) {
    if (value === "") delete fields[name];
  }
  return fields;
}
