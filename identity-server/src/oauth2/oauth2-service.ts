import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { defaultListenerLimits, type ListenerLimits } from "../http/listener-limits.ts";
import type { Tracing } from "../tracing/tracing.ts";
import { createIdentityMetrics, type IdentityMetrics } from "../metrics/identity-metrics.ts";
import type { Secrets } from "../secret.ts";
import type { Database } from "../store/schema.ts";
import { createAdminApp } from "./admin/admin-app.ts";
import type { AdminDeps } from "./admin/admin-deps.ts";
import { registerAdminRoutes } from "./admin/admin-routes.ts";
import { deleteConsentSessionsOfClient } from "./challenges/consent-sessions.ts";
import {
  acceptLoginRequest,
  getLoginRequest,
  rejectLoginRequest,
  type OAuth2LoginRequest,
  type RedirectTo,
} from "./challenges/login-requests.ts";
import type { AcceptLoginBody, RejectBody } from "./challenges/request-bodies.ts";
import { ClientAuthLimits } from "./clients/client-auth-limits.ts";
import { allClientScopes } from "./clients/client-store.ts";
import { upsertSeedClient, type ClientServiceDeps } from "./clients/client-service.ts";
import { deriveKey } from "./crypto/derived-keys.ts";
import { loadOrCreateSigningKeys } from "./crypto/signing-keys.ts";
import { SigningKeyRing } from "./crypto/signing-key-ring.ts";
import { invalidClientMetadata, invalidRedirectUri } from "./hydra-error.ts";
import type { OAuth2Config } from "./oauth2-config.ts";
import { ProviderHolder } from "./provider/provider-holder.ts";
import { createPublicListener, listen, urlOf } from "./public-listener.ts";
import { startExpiryCleanup } from "./store/expiry-cleanup.ts";
import { migrateOAuth2 } from "./store/oauth2-migrations.ts";
import type { OAuth2Db } from "./store/oauth2-tables.ts";
import { deleteEverythingOfClient } from "./tokens/token-rows.ts";

export interface OAuth2ServiceOptions {
  config: OAuth2Config;
  /** Interface of the public listener (the identity server's public host). */
  publicHost: string;
  /** The identity server's database handle; the service adds its own tables to it. */
  db: Kysely<Database>;
  /**
   * The server secrets, newest first: signing keys are sealed and cookies signed with keys derived
   * from the first; the others still open keys and verify cookies made before a rotation.
   */
  secrets: Secrets;
  logger: Logger;
  now?: () => Date;
  /**
   * Ends identity-provider (Kratos) sessions, given the `identity_provider_session_id`s recorded
   * at login accept, when their OAuth2 login session ends by logout (Hydra does the same).
   */
  endIdentityProviderSessions?: (sessionIds: string[]) => Promise<void>;
  /** Timeouts of both listeners (IDENTITY_HTTP_*); the configuration's defaults when not given. */
  listener?: ListenerLimits;
  /** Proxies whose X-Forwarded-* the public listener believes (IDENTITY_TRUSTED_PROXIES). */
  trustedProxies?: readonly string[];
  /** Spans of both listeners' requests, when tracing is on. */
  tracing?: Tracing | undefined;
  /** How long requests in flight may finish on close (IDENTITY_SHUTDOWN_GRACE); default 10 s. */
  shutdownGraceMs?: number;
  /** The identity server's metrics registry; a registry of its own when started alone. */
  metrics?: IdentityMetrics;
  /** How often expired rows are removed; default 10 minutes; 0: never (someone else prunes). */
  cleanupIntervalMs?: number;
}

/**
 * Login challenges in-process, for the identity server's own login flow (what Kratos does with
 * Hydra's admin API in hydra/hydra.go): the same answers as the admin endpoints.
 */
export interface OAuth2LoginRequests {
  getLoginRequest(challenge: string): Promise<OAuth2LoginRequest>;
  acceptLoginRequest(challenge: string, body: AcceptLoginBody): Promise<RedirectTo>;
  rejectLoginRequest(challenge: string, body: RejectBody): Promise<RedirectTo>;
}

export interface RunningOAuth2Service extends OAuth2LoginRequests {
  issuer: string;
  publicUrl: string;
  adminUrl: string;
  close(): Promise<void>;
}

/** oidc-provider's client metadata errors, as Hydra's admin API reports them. */
function providerValidationError(error: unknown): Error {
  const { error: code, error_description: description } = error as {
    error?: string;
    error_description?: string;
  };
  if (code === "invalid_redirect_uri") return invalidRedirectUri(description);
  if (code === "invalid_client_metadata") return invalidClientMetadata(description);
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Starts the Hydra-compatible OAuth2 service: oidc-provider on the public listener (Hydra's
 * paths) and Hydra's admin API on a loopback-only admin listener, both on the identity server's
 * database.
 */
export async function startOAuth2Service(
  options: OAuth2ServiceOptions,
): Promise<RunningOAuth2Service> {
  const { config, logger } = options;
  const now = options.now ?? (() => new Date());
  // The same connection, typed for the service's own tables.
  const db = options.db as unknown as OAuth2Db;
  const endIdentityProviderSessions =
    options.endIdentityProviderSessions ?? (() => Promise.resolve());
  await migrateOAuth2(db, now);
  const keys = await loadOrCreateSigningKeys(db, options.secrets, now, logger);

  let holder: ProviderHolder | undefined;
  const listenerLimits = options.listener ?? defaultListenerLimits;
  const metrics = options.metrics ?? createIdentityMetrics();
  const { server: publicServer, drain } = createPublicListener({
    config,
    db,
    logger,
    limits: listenerLimits,
    trustedProxies: options.trustedProxies ?? ["loopback"],
    shutdownGraceMs: options.shutdownGraceMs ?? 10_000,
    metrics,
    tracing: options.tracing,
    provider: () => holder,
  });
  let adminApp: FastifyInstance | undefined;
  let cleanup: { stop(): Promise<void> } | undefined;
  let closed: Promise<void> | undefined;
  // Readiness turns 503 at once; token requests in flight finish (up to the grace period) while
  // the admin listener finishes its own (Fastify's close waits for them).
  const close = () =>
    (closed ??= (async () => {
      await cleanup?.stop();
      await Promise.all([drain.start(), adminApp?.close()]);
    })());

  try {
    const publicAddress = await listen(publicServer, options.publicHost, config.publicPort);
    const issuer = config.issuer ?? `http://localhost:${publicAddress.port}`;
    const clientAuthLimits = new ClientAuthLimits(config.clientAuthLimits, () => now().getTime());
    clientAuthLimits.onRefused = () => metrics.rateLimited("client_auth");
    const providerHolder = new ProviderHolder(
      {
        config,
        db,
        now,
        logger: logger.child({ component: "oauth2-provider" }),
        issuer,
        keys,
        // oidc-provider (keygrip) signs with the first key and accepts any of them.
        cookieKeys: options.secrets.map((secret) =>
          deriveKey(secret, "cookie keys").toString("base64url"),
        ),
        clientAuthLimits,
        endIdentityProviderSessions,
      },
      await allClientScopes(db),
    );
    holder = providerHolder;
    const keyRing = new SigningKeyRing(
      { db, secret: options.secrets[0], now, changed: (next) => providerHolder.replaceKeys(next) },
      keys,
    );

    const clients: ClientServiceDeps = {
      db,
      now,
      async validateMetadata(metadata) {
        // The provider refuses scopes it was not built with; learn them before it validates.
        providerHolder.learnScopes((metadata.scope ?? "").split(" "));
        try {
          await providerHolder.current.Client.validate(metadata);
        } catch (error) {
          throw providerValidationError(error);
        }
      },
      clientSaved: (client) => {
        providerHolder.learnScopes(client.scope.split(" "));
        return Promise.resolve();
      },
      async clientDeleted(clientId) {
        await deleteEverythingOfClient(db, clientId);
        await deleteConsentSessionsOfClient(db, clientId);
      },
    };
    if (config.seedClient) await upsertSeedClient(clients, config.seedClient);

    const deps: AdminDeps = {
      db,
      now,
      config,
      issuer,
      provider: () => providerHolder.current,
      clients,
      logger,
      endIdentityProviderSessions,
    };
    adminApp = await createAdminApp(
      logger.child({ listener: "oauth2-admin" }),
      config.adminToken,
      listenerLimits,
    );
    registerAdminRoutes(adminApp, deps, {
      keyRing,
      metrics,
      tracing: options.tracing,
      isDraining: () => drain.isDraining(),
    });
    await adminApp.listen({ host: config.adminHost ?? "127.0.0.1", port: config.adminPort });
    const adminAddress = adminApp.server.address() as AddressInfo;

    if (options.cleanupIntervalMs !== 0) {
      cleanup = startExpiryCleanup(db, now, logger, options.cleanupIntervalMs ?? 600_000);
    }

    return {
      issuer,
      publicUrl: urlOf(publicAddress),
      adminUrl: urlOf(adminAddress),
      getLoginRequest: (challenge) => getLoginRequest(deps, challenge),
      acceptLoginRequest: (challenge, body) => acceptLoginRequest(deps, challenge, body),
      rejectLoginRequest: (challenge, body) => rejectLoginRequest(deps, challenge, body),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
