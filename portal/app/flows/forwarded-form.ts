import { formToJson } from "./submission.ts";

/**
 * Fields a person types where spaces around the value mean nothing (an address or code pasted
 * with a trailing space): the one change the portal makes to what is forwarded.
 */
const trimmedFields = ["identifier", "code", "totp_code", "lookup_secret"] as const;

/**
 * A posted flow form as the identity service receives it from the portal: the fields as the
 * browser posted them (the clicked button's name=value among them), as Kratos' own UIs post
 * theirs, so the identity service decides by `method`, or by a button's own field, which
 * strategy answers. Left out: the portal's own fields (`portalFields`, which the identity service
 * must never see) and empty fields, which the identity service reads as missing anyway.
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
  for (const [name, value] of Object.entries(fields)) {
    if (value === "") delete fields[name];
  }
  return fields;
}
