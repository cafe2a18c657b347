import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { ServerRouter, isRouteErrorResponse } from "react-router";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { addressScript } from "./http/page-address.ts";
import { requestInfoContext } from "./http/request-context.ts";
import { ServerCatalogues } from "./i18n/page-catalogue.ts";
import { beforeDocumentEnd, createPageStrings } from "./i18n/page-strings.server.ts";

export { createLoadContext } from "./http/request-context.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce, pageAddress } = loadContext.get(requestInfoContext);
  // A flow page that created its flow renders at the address naming it (http/page-address.ts).
  const address = pageAddress?.search;
  const handlerContext = routerContext.staticHandlerContext;
  if (address !== undefined)
    handlerContext.location = { ...handlerContext.location, search: address };
  const userAgent = request.headers.get("user-agent");
  // Crawlers get the complete document; browsers get the shell as soon as it is ready.
  const readyOption: keyof RenderToPipeableStreamOptions =
    userAgent && isbot(userAgent) ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );
    // The page carries only the strings its render looked up, not the whole catalogue.
    const pageStrings = createPageStrings();
    const { pipe, abort } = renderToPipeableStream(
      <ServerCatalogues value={pageStrings.read}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </ServerCatalogues>,
      {
        nonce,
        // Every finished Suspense boundary in place, whatever the page's size: past 12.8 kB React
        // moves a large one behind a script that reveals it (hidden without JavaScript, and
        // late with it), and the settings cards each have one (routes/settings/cards/lazy-card).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          // The address first: hydration waits for the page's strings (entry.client), so the
          // address bar names the flow before React Router reads it, however the bytes arrive.
          const strings = beforeDocumentEnd(
            () =>
              (address === undefined ? "" : addressScript(address, nonce)) +
              pageStrings.script(nonce),
          );
          strings.pipe(body);
          pipe(strings);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}

/**
 * A client's mistake (an unmatched URL's 404, `OPTIONS` or `PUT` on a page's 405) is an ordinary
 * answer, not an error worth a stack trace in the log; what failed on the server is.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  if (isRefusedCrossOriginPost(error)) return;
  console.error(error);
};

/**
 * React Router refuses a form post from another origin (or with an Origin that is no URL) with a
 * plain Error, not a route error response, and answers it 400 (lib/actions.ts,
 * throwIfPotentialCSRFAttack): anyone can send one, without a session or a token.
 */
function isRefusedCrossOriginPost(error: unknown): boolean {
  return error instanceof Error && error.message.endsWith("Aborting the action.");
}
