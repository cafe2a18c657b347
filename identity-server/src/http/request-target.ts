/**
 * The origin form (`/path?query`) of a request target. HTTP/1.1 also allows the absolute form
 * (`GET http://host/path`), which Node passes on as it is; handlers build URLs by prefixing
 * `request.url` with a base URL, as Kratos does with Go's already-split `r.URL.Path`, so the
 * absolute form is reduced to its path and query before routing.
 */
export function originForm(url: string): string {
  if (url.startsWith("/") || !/^https?:\/\//i.test(url)) return url;
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}
