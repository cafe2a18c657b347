import Provider, { errors, type Configuration } from "oidc-provider";
import type { Logger } from "pino";
import type { ClientAuthLimits } from "../clients/client-auth-limits.ts";
import type { ClientExtras } from "../clients/client-metadata.ts";
import { extraClientProperties } from "../clients/client-metadata.ts";
import { audienceNotAllowed, audienceNotAllowedHint } from "../clients/audience-matching.ts";
import type { PrivateJwk } from "../crypto/signing-keys.ts";
import type { OAuth2Config } from "../oauth2-config.ts";
import { clientBasedCors } from "../public-cors.ts";
import { scriptSrcHashesOnly } from "../public-security-headers.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";
import { payloadAdapterFactory } from "../store/payload-adapter.ts";
import { sendBrowserError } from "./browser-pages.ts";
import { challengeUiUrl } from "./challenge-ui-url.ts";
import {
  findAccountWithConsentClaims,
  releasableClaims,
  rememberedGrant,
} from "./consent-claims.ts";
import { registerClientCredentialsGrant } from "./client-credentials-grant.ts";
import { issueIdTokensAsHydra, userinfoWithConsentClaims } from "./hydra-token-claims.ts";
import { hydraInteractionPolicy } from "./interaction-policy.ts";
import { registerJwtBearerGrant } from "./jwt-bearer-grant.ts";
import { loginSessionRecorder, sessionTtl } from "./login-session-recorder.ts";
import {
  logoutCompletion,
  logoutPath,
  logoutSource,
  logoutVerifier,
  logoutWithoutSession,
  postLogoutSuccess,
} from "./logout-handling.ts";
import { injectedConsentMarker, offlineAccessPrompt } from "./offline-access-prompt.ts";
import { applyProviderOverrides } from "./provider-overrides.ts";
import { withRefreshGrantChecks } from "./refresh-grant-checks.ts";
import { revokeReplacedAccessTokens } from "./refresh-rotation.ts";
import { revocationAnswer } from "./revocation-answer.ts";
import { tokenErrorCodes } from "./token-error-codes.ts";
import { tokenLifespans } from "./token-lifespans.ts";
import { resumeCookieName, verifierResume } from "./verifier-resume.ts";

export interface ProviderDeps {
  config: OAuth2Config;
  db: OAuth2Db;
  now: () => Date;
  logger: Logger;
  issuer: string;
  keys: PrivateJwk[];
  cookieKeys: string[];
  /** Kept by the service, so a rebuilt provider keeps counting the same secret checks. */
  clientAuthLimits: ClientAuthLimits;
  endIdentityProviderSessions(sessionIds: string[]): Promise<void>;
}

/** Scopes every provider knows, besides those of the registered clients. */
const baseScopes = ["openid", "offline_access", "offline", "profile", "email", "address", "phone"];

const authorizationPath = "/oauth2/auth";

/** Hydra's paths on the public listener (oidc-provider is mounted at the root). */
const routes = {
  authorization: authorizationPath,
  token: "/oauth2/token",
  revocation: "/oauth2/revoke",
  userinfo: "/userinfo",
  jwks: "/.well-known/jwks.json",
  end_session: logoutPath,
};

/**
 * An oidc-provider configured to behave like Hydra. It only knows the scopes it is built with,
 * so the service builds a new one whenever a client brings a scope it has not seen.
 */
export function buildProvider(deps: ProviderDeps, scopes: Iterable<string>): Provider {
  const { config, db, now } = deps;
  const clientCors = clientBasedCors(config.cors);
  const claimDeps = { db, now };
  const configuration: Configuration = {
    adapter: payloadAdapterFactory(db, now),
    jwks: { keys: deps.keys },
    cookies: {
      keys: deps.cookieKeys,
      names: {
        session: "oauth2_session",
        interaction: "oauth2_interaction",
        resume: resumeCookieName,
      },
      long: { httpOnly: true, sameSite: "lax" },
      short: { httpOnly: true, sameSite: "lax" },
    },
    routes,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      introspection: { enabled: false },
      userinfo: { enabled: true },
      backchannelLogout: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: logoutSource({ ...deps }),
        postLogoutSuccessSource: postLogoutSuccess(config),
      },
      resourceIndicators: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      registration: { enabled: false },
    },
    scopes: [...new Set([...baseScopes, ...scopes])],
    claims: {
      acr: null,
      sid: null,
      auth_time: null,
      iss: null,
      openid: releasableClaims,
    },
    acrValues: ["0", "1", "2", "aal1", "aal2", "aal3"],
    // ID tokens carry the consent app's claims as Hydra's do, not only userinfo.
    conformIdTokenClaims: false,
    clientDefaults: {
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
      id_token_signed_response_alg: "RS256",
      require_auth_time: true,
    },
    clientAuthMethods: ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"],
    extraClientMetadata: {
      properties: [...extraClientProperties],
      validator: () => undefined,
    },
    extraParams: {
      audience: (_ctx, value, client) => {
        const refused = audienceNotAllowed(
          (client as typeof client & ClientExtras).hydra_audience ?? [],
          (value ?? "").split(" ").filter((a) => a !== ""),
        );
        if (refused !== undefined) {
          throw new errors.InvalidRequest(audienceNotAllowedHint(refused));
        }
      },
      [injectedConsentMarker]: null,
    },
    // Hydra's per-client origins, only while serve.public.cors is on (public-cors.ts).
    clientBasedCORS: (ctx, origin, client) =>
      clientCors(ctx, origin, client as typeof client & ClientExtras),
    findAccount: withRefreshGrantChecks(claimDeps, findAccountWithConsentClaims(claimDeps)),
    loadExistingGrant: rememberedGrant(claimDeps),
    // Revoking tokens (reused code or refresh token, /oauth2/revoke) removes the tokens of the
    // grant but keeps the grant: a remembered consent points at it, and Hydra never lets a token
    // revocation drop a remembered consent (fosite revokes by request id only).
    revokeGrantPolicy: () => false,
    // Hydra keeps tokens alive after logout; only the login session ends.
    expiresWithSession: () => false,
    issueRefreshToken: (_ctx, client, code) =>
      client.grantTypeAllowed("refresh_token") &&
      (code.scopes.has("offline_access") || code.scopes.has("offline")),
    rotateRefreshToken: true,
    pkce: {
      required: (_ctx, client) => config.pkceEnforced || client.clientAuthMethod === "none",
    },
    interactions: {
      policy: hydraInteractionPolicy(db, now),
      url: challengeUiUrl({ db, now, config, authorizationPath }),
    },
    ttl: tokenLifespans(config.lifespans, sessionTtl(config.lifespans)),
    renderError: (ctx, out) => {
      sendBrowserError(ctx, config.errorUrl, out.error, out.error_description ?? "", ctx.status);
    },
  };

  const provider = new Provider(deps.issuer, configuration);
  // Behind a TLS-terminating proxy the issuer is https while the listener speaks http. Koa then
  // believes X-Forwarded-* from any peer: the listener removes them first unless the peer is in
  // IDENTITY_TRUSTED_PROXIES (request-ip.ts).
  provider.proxy = deps.issuer.startsWith("https:");
  applyProviderOverrides(provider, deps.clientAuthLimits);
  issueIdTokensAsHydra(provider, claimDeps);
  registerClientCredentialsGrant(provider);
  registerJwtBearerGrant(provider, { db, now, tokenUrl: `${deps.issuer}${routes.token}` });

  provider.use(notFoundAsJson);
  provider.use(scriptSrcHashesOnly);
  provider.use(verifierResume({ db, now, errorUrl: config.errorUrl, provider, authorizationPath }));
  provider.use(resumeWithoutQuery);
  provider.use(tokenErrorCodes(routes.token));
  provider.use(revokeReplacedAccessTokens(routes.token, db));
  provider.use(revocationAnswer(routes.revocation));
  provider.use(userinfoWithConsentClaims(routes.userinfo, claimDeps));
  provider.use(offlineAccessPrompt(authorizationPath));
  provider.use(loginSessionRecorder(db, config.lifespans));
  provider.use(logoutVerifier({ ...deps, provider: () => provider }));
  provider.use(logoutWithoutSession(deps));
  provider.use(logoutCompletion({ ...deps }));

  provider.on("server_error", (_ctx, error) => {
    deps.logger.error({ err: error }, "oauth2 provider error");
  });
  return provider;
}

/**
 * oidc-provider's resume endpoint (`/oauth2/auth/<uid>`; browsers come back with a verifier
 * instead, which verifier-resume.ts turns into this route) reads no query parameters. With a `client_id` of a real client in the query and an
 * unknown uid, its error handler reads `ctx.oidc.params` before they exist and answers 500 (found
 * by the fuzzer), so the query string is dropped there.
 */
async function resumeWithoutQuery(
  ctx: Parameters<Parameters<Provider["use"]>[0]>[0],
  next: () => Promise<unknown>,
): Promise<void> {
  if (ctx.path.startsWith(`${authorizationPath}/`) && ctx.querystring !== "") ctx.querystring = "";
  await next();
}

/** Unknown public paths answer like Hydra's other errors, in JSON. */
async function notFoundAsJson(
  ctx: Parameters<Parameters<Provider["use"]>[0]>[0],
  next: () => Promise<unknown>,
): Promise<void> {
  await next();
  if (ctx.status === 404 && ctx.body === undefined) {
    ctx.status = 404;
    ctx.body = { error: "Not Found", error_description: "Unable to locate the requested resource" };
  }
}
