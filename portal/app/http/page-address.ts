/**
 * The address a document is rendered at when it is not the request's own: a flow page opened
 * without `?flow=` creates its flow and renders it in the same response (issue 20: no redirect
 * round trip before the first paint), as if at the URL that names the flow. Forms and links then
 * keep the flow without JavaScript, and the browser's address bar is set to that URL before the
 * page hydrates (see {@link addressScript}), so a reload with JavaScript keeps the flow.
 */
export interface PageAddress {
  /** The query the page is rendered with (`?…&flow=<id>`); unset: the request's own. */
  search?: string;
}

/**
 * `search` (a URL's `.search`, "" or "?…") with `flow` set to `flowId`. The request's own text is
 * kept as it is (the browser's address must match the server's render character for character,
 * or hydration would see different form actions); an empty `flow=` left in it is replaced.
 */
export function searchWithFlow(search: string, flowId: string): string {
  const query = new URLSearchParams(search);
  if (query.has("flow")) {
    query.set("flow", flowId);
    return `?${query.toString()}`;
  }
  const flow = `flow=${encodeURIComponent(flowId)}`;
  return search.length > 1 ? `${search}&${flow}` : `?${flow}`;
}

/**
 * An inline script that puts `search` into the address bar (keeping the fragment) without a
 * navigation. It comes before the page's strings, which entry.client waits for before it
 * hydrates, so React Router starts at the address the server rendered even when the document
 * arrives in parts. `<` is escaped: the
 * query is the visitor's own text and must not close the element.
 */
export function addressScript(search: string, nonce: string): string {
  const text = JSON.stringify(search).replace(/</g, "\\u003c");
  return `<script nonce="${nonce}">history.replaceState(history.state,"",${text}+location.hash)</script>`;
}
