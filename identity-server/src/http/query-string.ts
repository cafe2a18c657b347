// Kratos reads most query parameters with Go's `r.URL.Query().Get(key)`: a repeated key counts
// once, with its first value. Only a few are read as lists (`r.URL.Query()["expand"]`). Fastify's
// default parser turns every repeated key into an array, which handlers that expect a string then
// pass on to string functions or SQL (a 500). This parser gives every other key its first value.

/** The parameters read as lists: one value stays a string, several become an array. */
const listParameters = new Set(["expand", "ids", "include_credential"]);

export function parseQueryString(text: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  // Most requests have no query (every whoami): no URLSearchParams to build, as find-my-way's own.
  if (text.length === 0) return out;
  for (const [key, value] of new URLSearchParams(text)) {
    const current = out[key];
    if (current === undefined) out[key] = value;
    else if (listParameters.has(key)) {
      out[key] = Array.isArray(current) ? [...current, value] : [current, value];
    }
  }
  return out;
}
