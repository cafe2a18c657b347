import { writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { bufferedBody } from "./body-limit.server.ts";
import type { IdentityReadiness } from "./identity-readiness.server.ts";
import { startingPage } from "./starting-page.server.ts";

interface PageHandlerOptions {
  build: ServerBuild;
  mode: string | undefined;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => RouterContextProvider;
  /** Asked after a page failed: a failure while the identity service is down is "starting". */
  identityReadiness?: IdentityReadiness;
}

/**
 * React Router's request handler for Express, fed the body `limitBodies` already read and checked
 * (@react-router/express would read the request stream itself, without any limit, when an action
 * calls `request.formData()`).
 */
export function createPageHandler({
  build,
  mode,
  getLoadContext,
  identityReadiness,
}: PageHandlerOptions) {
  const handle = createRequestHandler(build, mode);
  /** While the identity service is starting (or gone), a failed page says so and retries. */
  const identityDown = async (status: number) =>
    status >= 500 && identityReadiness !== undefined && !(await identityReadiness.isUp());
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    let request: Request | undefined;
    try {
      request = fetchRequest(req, res);
      const response = await handle(request, getLoadContext(req, res));
      if (await identityDown(response.status)) {
        await response.body?.cancel();
        sendStartingPage(res, request);
        return;
      }
      await sendResponse(res, response);
    } catch (error) {
      if (request && !res.headersSent && (await identityDown(500))) {
        sendStartingPage(res, request);
        return;
      }
      next(error);
    }
  };
}

function sendStartingPage(res: ExpressResponse, request: Request): void {
  if (res.destroyed || res.writableEnded) return;
  const page = startingPage(request);
  res.status(page.status).set(page.headers).send(page.body);
}

// Host names and ports only: a Host header such as `evil@x` or `x/y` must not shape the URL.
const plainHost = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

function fetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  // Express' req.host follows X-Forwarded-Host from the trusted (loopback) proxy only.
  const host = plainHost.test(req.host) ? req.host : "localhost";
  const url = new URL(`${req.protocol}://${host}${req.originalUrl}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  // Loaders and actions stop their calls to the identity service when the browser goes away.
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const body = hasBody ? bufferedBody(req) : undefined;
  return new Request(url, {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(body ? { body: new Uint8Array(body) } : {}),
  });
}

async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!res.destroyed && !res.writableEnded) throw error;
  }
}
