import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { IdentityServerConfig } from "../config/config.ts";
import type { IdentityMetrics } from "../metrics/identity-metrics.ts";
import type { Tracing } from "../tracing/tracing.ts";
import type { Secrets } from "../secret.ts";
import { revokeSession } from "../store/sessions.ts";
import type { Database } from "../store/schema.ts";
import { startOAuth2Service, type RunningOAuth2Service } from "./oauth2-service.ts";

export interface IdentityServerParts {
  db: Kysely<Database>;
  secrets: Secrets;
  logger: Logger;
  now: () => Date;
  metrics: IdentityMetrics;
  tracing?: Tracing | undefined;
}

/**
 * Starts the OAuth2 service next to the identity server (unless IDENTITY_OAUTH2_ENABLED=false):
 * same database, same secret, and a logout through the OAuth2 logout flow ends the identity
 * session recorded at login accept, as Hydra ends the Kratos session.
 */
export async function startOAuth2WithIdentityServer(
  config: IdentityServerConfig,
  parts: IdentityServerParts,
): Promise<RunningOAuth2Service | undefined> {
  if (!config.oauth2.enabled) return undefined;
  return startOAuth2Service({
    config: config.oauth2,
    publicHost: config.publicHost,
    listener: config.listener,
    trustedProxies: config.trustedProxies,
    shutdownGraceMs: config.shutdownGraceMs,
    db: parts.db,
    secrets: parts.secrets,
    logger: parts.logger.child({ component: "oauth2" }),
    now: parts.now,
    metrics: parts.metrics,
    tracing: parts.tracing,
    // The identity server's cleanup schedule (IDENTITY_CLEANUP_*) prunes the OAuth2 tables too.
    cleanupIntervalMs: 0,
    async endIdentityProviderSessions(sessionIds) {
      for (const id of sessionIds) await revokeSession(parts.db, id, parts.now());
    },
  });
}
