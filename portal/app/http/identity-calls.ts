/**
 * One call of the portal to the identity service, as its metrics count it. A plain interface
 * (no prom-client here): page code reaches the observer through the request's load context,
 * because server.ts, which owns the metrics, lives outside the Vite build.
 */
export interface IdentityCall {
  /** `page`: a loader's or action's own call; `proxy`: the browser's, through /api/kratos. */
  source: "page" | "proxy";
  /** The path called, without the query (ids in it are replaced before it becomes a label). */
  path: string;
  /** The answer's status, or undefined when there was none (refused, reset, timed out). */
  status: number | undefined;
  seconds: number;
}

export interface IdentityCallObserver {
  observe(call: IdentityCall): void;
}

/** A fetch that tells `observer` how each call went; the answer or error passes through. */
export function observedFetch(
  observer: IdentityCallObserver,
  fetchApi: typeof fetch,
): typeof fetch {
  return async (input, init) => {
    const started = performance.now();
    const url = new URL(input instanceof Request ? input.url : input);
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const response = await fetchApi(input, init);
      observer.observe({
        source: "page",
        path: url.pathname,
        status: response.status,
        seconds: seconds(),
      });
      return response;
    } catch (error) {
      observer.observe({
        source: "page",
        path: url.pathname,
        status: undefined,
        seconds: seconds(),
      });
      throw error;
    }
  };
}
