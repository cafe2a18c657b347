import type { WidenedDirective } from "./csp-origins.ts";
import type { IdentityCallObserver } from "./identity-calls.ts";
import type { PageAddress } from "./page-address.ts";
import { RouterContextProvider, createContext } from "react-router";

export interface RequestInfo {
  /** CSP nonce of this response; every script the page emits must carry it. */
  nonce: string;
  /** X-Forwarded-For to pass on: the browser's address (req.ip, as PORTAL_TRUSTED_PROXIES allow). */
  forwardedFor: string | undefined;
  /** x-correlation-id of this request (incoming or freshly minted by the server). */
  correlationId: string | undefined;
  /**
   * Adds origins to one directive of this response's CSP (pages rendered for an OAuth2
   * challenge: the client's redirect URIs to form-action, its logo to img-src). Absent where no
   * policy is sent (tests, tools).
   */
  allowOrigins?: (directive: WidenedDirective, origins: readonly string[]) => void;
  /** Counts the page's calls to the identity service (PORTAL_METRICS_PORT); absent when off. */
  identityCalls?: IdentityCallObserver;
  /**
   * `traceparent` (and `tracestate`) of this request's span (OTEL_EXPORTER_OTLP_ENDPOINT): the
   * identity service's calls carry them, so its spans are children of ours. Absent when off.
   */
  traceHeaders?: { traceparent: string; tracestate?: string };
  /**
   * Present on a document request: a flow page's loader that creates a flow notes there the
   * address the page is rendered at (entry.server renders it so). Absent on React Router's data
   * requests (client navigations), whose answer is not rendered here: the loader redirects instead.
   */
  pageAddress?: PageAddress;
}

export const requestInfoContext = createContext<RequestInfo>({
  nonce: "",
  forwardedFor: undefined,
  correlationId: undefined,
});

/**
 * server.ts lives outside the Vite build, so it cannot import this module's context key
 * itself; entry.server re-exports this factory and server.ts reaches it through the build.
 */
export function createLoadContext(info: RequestInfo): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestInfoContext, info);
  return context;
}
