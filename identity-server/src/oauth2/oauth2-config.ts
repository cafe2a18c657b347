import { z } from "zod";
import { duration, flag, httpUrl, jsonValue, limitCount, port } from "../config/env-values.ts";
import { oauth2CorsConfigFrom, type CorsEnv } from "../config/cors-config.ts";
import type { CorsConfig } from "../http/cors.ts";
import type { ClientAuthLimitRules } from "./clients/client-auth-limits.ts";

/** The Hydra-compatible OAuth2 service's settings (environment variables IDENTITY_OAUTH2_*). */
export interface OAuth2Config {
  enabled: boolean;
  /** Public listener port (Hydra's 4444); it binds the identity public host. */
  publicPort: number;
  /** Admin listener port (Hydra's 4445). */
  adminPort: number;
  /** Where the admin listener binds (IDENTITY_OAUTH2_ADMIN_HOST); absent counts as 127.0.0.1. */
  adminHost?: string;
  /** The issuer; unset means `http://localhost:<public port>` once the listener is bound. */
  issuer: string | undefined;
  loginUrl: string;
  consentUrl: string;
  logoutUrl: string;
  /** Where the browser goes after a logout without a registered post_logout_redirect_uri. */
  postLogoutRedirectUrl: string;
  /** Where browser-facing errors are sent (`?error=&error_description=`); unset renders a page. */
  errorUrl: string | undefined;
  /** Bearer token the admin API requires; unset leaves the loopback-only admin API open. */
  adminToken: string | undefined;
  /** Hydra's `oauth2.pkce.enforced`: PKCE for every client, not only public ones. */
  pkceEnforced: boolean;
  /**
   * IDENTITY_ORY_EXTENSIONS (set by the identity server's config): false drops our additions to
   * Hydra's surface (the public `/version`). Absent counts as true.
   */
  oryExtensions?: boolean;
  lifespans: OAuth2Lifespans;
  /** Budgets of hashed client secret checks per client id and per client IP. */
  clientAuthLimits: ClientAuthLimitRules;
  /** A first-party client registered (upserted) at every start-up. */
  seedClient: SeedClient | undefined;
  /** Hydra's `serve.public.cors` on the public listener (IDENTITY_OAUTH2_CORS_*). */
  cors: CorsConfig;
}

export interface OAuth2Lifespans {
  accessTokenMs: number;
  refreshTokenMs: number;
  idTokenMs: number;
  authorizationCodeMs: number;
  /** How long a login, consent or logout challenge stays usable (Hydra's ttl.login_consent_request). */
  loginConsentRequestMs: number;
  /** Longest a remembered login lasts (Hydra's ttl.authentication_session). */
  authenticationSessionMs: number;
}

export interface SeedClient {
  client_id: string;
  client_secret?: string | undefined;
  client_name?: string | undefined;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[] | undefined;
  skip_consent?: boolean | undefined;
  grant_types?: string[] | undefined;
  response_types?: string[] | undefined;
  scope?: string | undefined;
  token_endpoint_auth_method?: string | undefined;
}

const issuerUrl = httpUrl.refine((value) => {
  const url = new URL(value);
  return url.search === "" && url.hash === "" && !value.endsWith("?") && !value.endsWith("#");
}, "must not have a query or fragment");

// Lifespans and the client-auth window: a second at least.
const atLeastASecond = duration((ms) => ms >= 1000, "a duration of at least 1s");

const seedClientSchema = z
  .object({
    client_id: z.string().trim().min(1),
    client_secret: z.string().min(6).optional(),
    client_name: z.string().optional(),
    redirect_uris: z.array(z.string()).min(1),
    post_logout_redirect_uris: z.array(z.string()).optional(),
    skip_consent: z.boolean().optional(),
    grant_types: z.array(z.string()).optional(),
    response_types: z.array(z.string()).optional(),
    scope: z.string().optional(),
    token_endpoint_auth_method: z.string().optional(),
  })
  .strict();

const seedClient = jsonValue("must be a JSON object", (json, ctx) => {
  const parsed = seedClientSchema.safeParse(json);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const at = issue.path.length > 0 ? ` (${issue.path.join(".")})` : "";
      ctx.addIssue({ code: "custom", message: `${issue.message}${at}` });
    }
    return z.NEVER;
  }
  return parsed.data;
});

/** The environment variables of the OAuth2 service; `loadConfig` validates them with the rest. */
export const oauth2EnvShape = {
  IDENTITY_OAUTH2_ENABLED: flag.default(true),
  IDENTITY_OAUTH2_PUBLIC_PORT: port.default(4444),
  IDENTITY_OAUTH2_ADMIN_PORT: port.default(4445),
  IDENTITY_OAUTH2_ISSUER: issuerUrl.optional(),
  IDENTITY_OAUTH2_LOGIN_URL: httpUrl.default("http://localhost:3000/login"),
  IDENTITY_OAUTH2_CONSENT_URL: httpUrl.default("http://localhost:3000/consent"),
  IDENTITY_OAUTH2_LOGOUT_URL: httpUrl.default("http://localhost:3000/logout"),
  IDENTITY_OAUTH2_POST_LOGOUT_REDIRECT_URL: httpUrl.default("http://localhost:3000/"),
  IDENTITY_OAUTH2_ERROR_URL: httpUrl.optional(),
  IDENTITY_ADMIN_TOKEN: z.string().trim().min(16, "must be at least 16 characters long").optional(),
  IDENTITY_OAUTH2_PKCE_ENFORCED: flag.default(false),
  IDENTITY_OAUTH2_ACCESS_TOKEN_LIFESPAN: atLeastASecond.default(3_600_000),
  IDENTITY_OAUTH2_REFRESH_TOKEN_LIFESPAN: atLeastASecond.default(720 * 3_600_000),
  IDENTITY_OAUTH2_ID_TOKEN_LIFESPAN: atLeastASecond.default(3_600_000),
  IDENTITY_OAUTH2_AUTH_CODE_LIFESPAN: atLeastASecond.default(600_000),
  IDENTITY_OAUTH2_LOGIN_CONSENT_REQUEST_LIFESPAN: atLeastASecond.default(1_800_000),
  IDENTITY_OAUTH2_AUTHENTICATION_SESSION_LIFESPAN: atLeastASecond.default(720 * 3_600_000),
  IDENTITY_OAUTH2_SEED_CLIENT: seedClient.optional(),
  IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_CLIENT: limitCount.default(20),
  IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_IP: limitCount.default(50),
  IDENTITY_RATE_LIMIT_CLIENT_AUTH_WINDOW: atLeastASecond.default(15 * 60_000),
};

type OAuth2Env = z.infer<z.ZodObject<typeof oauth2EnvShape>>;

/** Maps the validated variables onto the service's settings. */
export function oauth2ConfigFrom(env: OAuth2Env & CorsEnv): OAuth2Config {
  return {
    enabled: env.IDENTITY_OAUTH2_ENABLED,
    publicPort: env.IDENTITY_OAUTH2_PUBLIC_PORT,
    adminPort: env.IDENTITY_OAUTH2_ADMIN_PORT,
    issuer: env.IDENTITY_OAUTH2_ISSUER?.replace(/\/+$/, ""),
    loginUrl: env.IDENTITY_OAUTH2_LOGIN_URL,
    consentUrl: env.IDENTITY_OAUTH2_CONSENT_URL,
    logoutUrl: env.IDENTITY_OAUTH2_LOGOUT_URL,
    postLogoutRedirectUrl: env.IDENTITY_OAUTH2_POST_LOGOUT_REDIRECT_URL,
    errorUrl: env.IDENTITY_OAUTH2_ERROR_URL,
    adminToken: env.IDENTITY_ADMIN_TOKEN,
    pkceEnforced: env.IDENTITY_OAUTH2_PKCE_ENFORCED,
    lifespans: {
      accessTokenMs: env.IDENTITY_OAUTH2_ACCESS_TOKEN_LIFESPAN,
      refreshTokenMs: env.IDENTITY_OAUTH2_REFRESH_TOKEN_LIFESPAN,
      idTokenMs: env.IDENTITY_OAUTH2_ID_TOKEN_LIFESPAN,
      authorizationCodeMs: env.IDENTITY_OAUTH2_AUTH_CODE_LIFESPAN,
      loginConsentRequestMs: env.IDENTITY_OAUTH2_LOGIN_CONSENT_REQUEST_LIFESPAN,
      authenticationSessionMs: env.IDENTITY_OAUTH2_AUTHENTICATION_SESSION_LIFESPAN,
    },
    clientAuthLimits: {
      perClient: {
        max: env.IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_CLIENT,
        windowMs: env.IDENTITY_RATE_LIMIT_CLIENT_AUTH_WINDOW,
      },
      perIp: {
        max: env.IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_IP,
        windowMs: env.IDENTITY_RATE_LIMIT_CLIENT_AUTH_WINDOW,
      },
    },
    seedClient: env.IDENTITY_OAUTH2_SEED_CLIENT,
    cors: oauth2CorsConfigFrom(env),
  };
}
