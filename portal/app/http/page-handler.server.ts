import { writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { bufferedBody } from "./body-limit.server.ts";

interface PageHandlerOptions {
  build: ServerBuild;
  mode: string | undefined;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => RouterContextProvider;
}

/**
 * React Router's request handler for Express, fed the body `limitBodies` already read and checked
 * (@react-router/express would read the request stream itself, without any limit, when an action
 * calls `request.formData()`).
 */
export function createPageHandler({ build, mode, getLoadContext }: PageHandlerOptions) {
  const handle = createRequestHandler(build, mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const request = fetchRequest(req, res);
      const response = await handle(request, getLoadContext(req, res));
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
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
