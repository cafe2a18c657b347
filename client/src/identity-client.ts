import { Configuration, FrontendApi, IdentityApi } from "@ory/client-fetch";
import { SelfServiceApi } from "./self-service-api.ts";

export interface IdentityClientOptions {
  /** Base URL of the identity service's API, e.g. `http://127.0.0.1:4433`. */
  basePath: string;
  /** Headers sent with every call (Cookie, User-Agent, X-Forwarded-For, x-correlation-id …). */
  headers?: Record<string, string>;
  /** The fetch to use; defaults to the global fetch, looked up at call time so tests can stub it. */
  fetchApi?: typeof fetch;
}

export interface IdentityClient {
  frontend: FrontendApi;
  identity: IdentityApi;
  /** Flow submissions with the identity service's additions to Kratos' bodies. */
  selfService: SelfServiceApi;
}

/**
 * The identity service answers browser flows with redirects unless asked for JSON, and a
 * server-side caller must see those answers itself rather than have fetch follow them.
 */
export function createIdentityClient(options: IdentityClientOptions): IdentityClient {
  const fetchApi: typeof fetch = (input, init) =>
    (options.fetchApi ?? globalThis.fetch)(input, { ...init, redirect: "manual" });
  const configuration = new Configuration({
    basePath: options.basePath.replace(/\/+$/, ""),
    headers: { Accept: "application/json", ...options.headers },
    fetchApi,
  });
  return {
    frontend: new FrontendApi(configuration),
    identity: new IdentityApi(configuration),
    selfService: new SelfServiceApi(configuration),
  };
}
