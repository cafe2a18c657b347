/** Names of the sign-out question's form fields, shared by the page and its action. */
export const logoutChallengeParam = "logout_challenge";
export const logoutDecisionName = "decision";

/**
 * What a sign-out carries to where the browser lands afterwards (logout-destination):
 * `login_challenge` ("Use another account"). The same name in a link's query and in the sign-out
 * form's hidden fields.
 */
const signOutCarriedFields = ["login_challenge"] as const;

/** The carried fields present in `source`, as hidden-field name/value pairs. */
export function carriedFields(source: URLSearchParams | FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of signOutCarriedFields) {
    const value = source.get(name);
    if (typeof value === "string" && value !== "") fields[name] = value;
  }
  return fields;
}
