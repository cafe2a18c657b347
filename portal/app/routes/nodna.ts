/**
 * Spec §2: "No" in the create-account dialog leads to /registration#nodna, which shows a warning.
 * A URL fragment never reaches the server, so the link also carries it as a query parameter:
 * the page warns without JavaScript too, and the parameter survives the flow-creating redirect.
 */
export const nodnaParam = "nodna";
export const nodnaHash = "#nodna";

/** The registration URL the dialog's "No" leads to, from the query the "Yes" link uses. */
export function nodnaHref(registrationPath: string, query: string): string {
  const params = new URLSearchParams(query);
  params.set(nodnaParam, "1");
  return `${registrationPath}?${params.toString()}${nodnaHash}`;
}

export function hasNodna(query: URLSearchParams): boolean {
  return query.has(nodnaParam);
}
