import { Configuration, FrontendApi, IdentityApi, OAuth2Api } from "@ory/client-fetch";
import {
  requestHeadersMiddleware,
  type ClientLogger,
  type FingerprintGetter,
} from "./request-headers.ts";
import { withSpecRequiredErrors } from "./required-parameters.ts";
import { SelfServiceApi } from "./self-service-api.ts";

/** Where a browser reaches the identity service: the portal's proxy (`/api/{provider}`). */
export const browserBasePath = "/api/kratos";

/** How the OAuth2 token and revoke calls authenticate: client credentials, or a bearer token. */
export type OAuth2Credentials =
  { clientId: string; clientSecret: string } | { accessToken: string };

export interface IdentityClientOptions {
  /**
   * Base URL of the public API, e.g. `http://127.0.0.1:4433` (the configured public URL). In a
   * browser it defaults to `/api/kratos`; elsewhere it must be given.
   */
  basePath?: string;
  /** Base URL of the admin API (the `identity` part); defaults to `basePath`. */
  adminBasePath?: string;
  /** Base URL of the OAuth2 API (the `oauth2` part), e.g. an internal admin URL; defaults to `adminBasePath`. */
  oauth2BasePath?: string;
  /** Sent as `Authorization: Bearer <token>` by every admin call (identity and OAuth2 admin). */
  adminToken?: string;
  /** Credentials for the OAuth2 token and revoke endpoints. */
  oauth2Credentials?: OAuth2Credentials;
  /** The control plane's base URL (event streams, projects, organizations, workspaces): declared only. */
  controlPlaneUrl?: string;
  /** Headers sent with every call (Cookie, User-Agent, X-Forwarded-For, x-correlation-id …). */
  headers?: Record<string, string>;
  /** The browser fingerprint for `x-session-entropy`; a getter that throws is logged, not fatal. */
  fingerprint?: FingerprintGetter;
  /** Where problems the client works around are reported; defaults to the console. */
  logger?: ClientLogger;
  /** The fetch to use; defaults to the global fetch, looked up at call time so tests can stub it. */
  fetchApi?: typeof fetch;
}

export interface IdentityClient {
  frontend: FrontendApi;
  identity: IdentityApi;
  oauth2: OAuth2Api;
  /** Flow submissions with the identity service's additions to Kratos' bodies. */
  selfService: SelfServiceApi;
  /** The declared control-plane base URL (no calls are made to it here). */
  controlPlaneUrl: string | undefined;
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

function defaultBasePath(): string {
  if ("window" in globalThis && "document" in globalThis) return browserBasePath;
  throw new Error("createIdentityClient: basePath (the public URL) is required outside a browser.");
}

function oauth2Authorization(credentials: OAuth2Credentials | undefined): string | undefined {
  if (!credentials) return undefined;
  if ("accessToken" in credentials) return `Bearer ${credentials.accessToken}`;
  return `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`;
}

/**
 * The typed client of spec §7: `frontend` (public self-service and session calls), `identity`
 * (admin identities, sessions, recovery), `oauth2` (the OAuth2 admin and token calls), all from
 * @ory/client-fetch. Cookies go along (`credentials: "include"`), the identity service's answers
 * are asked for as JSON and redirects are never followed (a server-side caller must see them),
 * and every request carries `x-correlation-id` and, when available, `x-session-entropy`.
 * Missing required parameters throw the SDK's RequiredError worded as spec §8.
 */
export function createIdentityClient(options: IdentityClientOptions = {}): IdentityClient {
  const fetchApi: typeof fetch = (input, init) =>
    (options.fetchApi ?? globalThis.fetch)(input, { ...init, redirect: "manual" });
  const basePath = withoutTrailingSlash(options.basePath ?? defaultBasePath());
  const adminBasePath = withoutTrailingSlash(options.adminBasePath ?? basePath);
  const oauth2BasePath = withoutTrailingSlash(options.oauth2BasePath ?? adminBasePath);
  const middleware = [
    requestHeadersMiddleware({
      fingerprint: options.fingerprint,
      logger: options.logger ?? console,
    }),
  ];
  const shared = {
    headers: { Accept: "application/json", ...options.headers },
    credentials: "include" as const,
    fetchApi,
    middleware,
  };
  const adminToken = options.adminToken;
  const oauth2Auth = oauth2Authorization(options.oauth2Credentials);
  // The SDK asks for the "oryAccessToken" of admin operations (and prefixes "Bearer "), and for
  // the full "oauth2" Authorization value of the token and revoke endpoints. Its type says
  // string, but an undefined header is dropped, which is what an absent credential needs.
  const accessToken = ((name?: string) => (name === "oauth2" ? oauth2Auth : adminToken)) as (
    name?: string,
  ) => string;
  const hasAdminAuth = adminToken !== undefined || oauth2Auth !== undefined;

  const publicConfiguration = new Configuration({ ...shared, basePath });
  const adminConfiguration = new Configuration({
    ...shared,
    basePath: adminBasePath,
    ...(hasAdminAuth ? { accessToken } : {}),
  });
  const oauth2Configuration = new Configuration({
    ...shared,
    basePath: oauth2BasePath,
    ...(hasAdminAuth ? { accessToken } : {}),
  });
  return {
    frontend: withSpecRequiredErrors(new FrontendApi(publicConfiguration)),
    identity: withSpecRequiredErrors(new IdentityApi(adminConfiguration)),
    oauth2: withSpecRequiredErrors(new OAuth2Api(oauth2Configuration)),
    selfService: withSpecRequiredErrors(new SelfServiceApi(publicConfiguration)),
    controlPlaneUrl:
      options.controlPlaneUrl === undefined
        ? undefined
        : withoutTrailingSlash(options.controlPlaneUrl),
  };
}
