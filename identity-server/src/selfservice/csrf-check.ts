import type { FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { csrfViolation, verifyCsrfToken } from "../http/csrf.ts";
import { badRequest } from "../http/errors.ts";
import type { Flow } from "./flow.ts";

const cloudflareCookie = /^(__cf|_cf|cf_)/;

/**
 * Kratos' flow.EnsureCSRF. Browser flows: the posted `csrf_token` must unmask to the secret in the
 * anti-CSRF cookie (403 otherwise). API flows have no token, so a request that looks like it comes
 * from a browser (an Origin header or any non-Cloudflare cookie) is refused with 400 instead.
 */
export function ensureCsrf(
  ctx: ServerContext,
  request: FastifyRequest,
  flow: Flow,
  sentToken: string | undefined,
): void {
  if (flow.type === "api") {
    if (request.headers.origin) {
      throw badRequest(
        'The HTTP Request Header included the "Origin" key, indicating that this request was made as part of an AJAX request in a Browser. The flow however was initiated as an API request. To prevent potential misuse and mitigate several attack vectors including CSRF, the request has been blocked. Please consult the documentation.',
      );
    }
    const cookies = Object.keys(request.cookies).filter((name) => !cloudflareCookie.test(name));
    if (cookies.length > 0) {
      throw badRequest(
        'The HTTP Request Header included the "Cookie" key, indicating that this request was made by a Browser. The flow however was initiated as an API request. To prevent potential misuse and mitigate several attack vectors including CSRF, the request has been blocked. Please consult the documentation.',
        { details: { "found cookies": cookies } },
      );
    }
    return;
  }
  if (!verifyCsrfToken(request.cookies[ctx.cookies.csrfCookieName], sentToken)) {
    throw csrfViolation(request, ctx.cookies, sentToken);
  }
}
