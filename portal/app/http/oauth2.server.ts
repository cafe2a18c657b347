import { createIdentityClient } from "@portal/client";
import type { IdentityClient } from "@portal/client";
import type { RouterContextProvider } from "react-router";
import { getConfig } from "../config.server.ts";
import { requestInfoContext } from "./request-context.ts";

/**
 * The OAuth2 service's admin API (Hydra's /admin/oauth2/auth/requests/…), for the consent and
 * logout pages. Server-side only: the admin API is never exposed to browsers, so no cookies go
 * along, only the request's correlation id and trace context (and the admin token when configured).
 */
export function oauth2AdminFor(context: Readonly<RouterContextProvider>): IdentityClient["oauth2"] {
  const config = getConfig();
  const { correlationId, traceHeaders } = context.get(requestInfoContext);
  return createIdentityClient({
    basePath: config.oauth2AdminUrl,
    oauth2BasePath: config.oauth2AdminUrl,
    adminToken: config.oauth2AdminToken,
    headers: {
      ...(correlationId ? { "x-correlation-id": correlationId } : {}),
      // The portal's request span (tracing on): the OAuth2 service's span is its child.
      ...traceHeaders,
    },
  }).oauth2;
}
