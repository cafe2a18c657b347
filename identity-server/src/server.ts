import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { pino, type Logger } from "pino";
import { registerCourierMessageRoutes } from "./admin/courier-messages.ts";
import { registerIdentityRoutes } from "./admin/identities.ts";
import { registerAdminRecoveryRoutes } from "./admin/recovery.ts";
import { registerAdminSessionRoutes } from "./admin/sessions.ts";
import type { IdentityServerConfig } from "./config/config.ts";
import type { ServerContext } from "./context.ts";
import { Courier } from "./courier/courier.ts";
import { createMailboxServer } from "./courier/mailbox-server.ts";
import type { MessageChannel } from "./courier/message.ts";
import type { Transport } from "./courier/transports/transport.ts";
import { registerErrorRoutes } from "./selfservice/errors.ts";
import { registerLoginRoutes } from "./flows/login/routes.ts";
import { registerLogoutRoutes } from "./flows/logout.ts";
import { registerRecoveryRoutes } from "./flows/recovery/routes.ts";
import { registerRegistrationRoutes } from "./flows/registration/routes.ts";
import { registerSettingsRoutes } from "./flows/settings/routes.ts";
import { registerVerificationRoutes } from "./flows/verification/routes.ts";
import { registerWebAuthnScriptRoute } from "./flows/webauthn-script.ts";
import { registerHealthRoutes } from "./health.ts";
import { cookieSettings } from "./http/cookies.ts";
import { registerCors } from "./http/cors-hook.ts";
import { createFastify } from "./http/fastify-setup.ts";
import { registerAdminTokenCheck } from "./http/admin-token.ts";
import { registerAdminSchemaRedirects } from "./http/admin-schema-redirect.ts";
import { registerCsrfCookieHook } from "./http/csrf-cookie-hook.ts";
import { registerVersionRoutes } from "./http/version-routes.ts";
import { IdentitySchema } from "./identity/identity-schema.ts";
import { registerSchemaRoutes } from "./identity/schema-routes.ts";
import { loadOrCreateSecrets } from "./secret.ts";
import { registerSessionsRoutes } from "./session/sessions-routes.ts";
import { registerTokenExchangeRoute } from "./session/token-exchange.ts";
import { SessionTokenizer } from "./session/tokenizer.ts";
import { registerWhoamiRoute } from "./session/whoami.ts";
import { openDatabase } from "./store/database.ts";
import { refusePendingMigrations } from "./store/schema-status.ts";
import { startCleanupSchedule } from "./operations/cleanup.ts";
import {
  createIdentityMetrics,
  observeCourier,
  observeDatabase,
} from "./metrics/identity-metrics.ts";
import { registerMetricsRoutes, registerRequestMetrics } from "./metrics/metrics-routes.ts";
import { startTracing } from "./tracing/tracing.ts";
import { traceFastify } from "./tracing/tracing-hooks.ts";
import type { SpanExporter } from "@opentelemetry/sdk-trace";
import type { RunningOAuth2Service } from "./oauth2/oauth2-service.ts";
import { startOAuth2WithIdentityServer } from "./oauth2/start-with-identity-server.ts";

export interface RunningIdentityServer {
  publicUrl: string;
  adminUrl: string;
  /** The mailbox page, when the mailbox is enabled. */
  mailboxUrl: string | undefined;
  /** The outbox and its dispatcher (tests drive deliveries and await their events). */
  courier: Courier;
  /** The Hydra-compatible OAuth2 service (src/oauth2), unless IDENTITY_OAUTH2_ENABLED=false. */
  oauth2: RunningOAuth2Service | undefined;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Replaces the wall clock (tests use it to expire flows without waiting). */
  now?: () => Date;
  logger?: Logger;
  /** Replaces the configured courier transports per channel (tests use failing stubs). */
  transports?: Partial<Record<MessageChannel, Transport>>;
  /** Tests: tracing on, every span to this exporter (else OTEL_EXPORTER_OTLP_ENDPOINT decides). */
  spanExporter?: SpanExporter;
  /** false: messages are only sent when `courier.dispatchDue()` is called (tests of retries). */
  courierAutoDispatch?: boolean;
}

function urlOf(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** Opens the data dir, then starts the public, the admin (loopback by default) and mailbox listeners. */
export async function startIdentityServer(
  config: IdentityServerConfig,
  options: StartOptions = {},
): Promise<RunningIdentityServer> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  // First: a bad key file must stop the start before anything is opened.
  const sessionTokenizer = await SessionTokenizer.create(
    config.sessionTokenizer,
    config.publicBaseUrl,
    config.dataDir,
  );
  const db = await openDatabase(config.dataDir, {
    migrate: config.migrateOnStart,
    synchronous: config.sqliteSynchronous,
  });
  if (!config.migrateOnStart) {
    try {
      await refusePendingMigrations(db, config.oauth2.enabled);
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }
  const now = options.now ?? (() => new Date());
  const secrets = loadOrCreateSecrets(config.dataDir, config.secrets);
  const courier = new Courier({
    config: config.courier,
    db,
    logger: logger.child({ component: "courier" }),
    now,
    transports: options.transports,
  });
  const tracing = await startTracing({
    endpoint: config.otlpEndpoint,
    exporter: options.spanExporter,
  });
  // One registry for everything this server runs, its OAuth2 service included.
  const metrics = createIdentityMetrics();
  observeCourier(metrics, courier, db);
  observeDatabase(metrics, db);
  let shuttingDown = false;
  const ctx: ServerContext = {
    config,
    db,
    schema: IdentitySchema.load(config.schemaPath),
    cookies: cookieSettings(config.publicBaseUrl, secrets),
    returnToPolicy: {
      defaultReturnUrl: config.defaultReturnUrl,
      allowedReturnUrls: config.allowedReturnUrls,
      publicBaseUrl: config.publicBaseUrl,
    },
    secret: secrets[0],
    secrets,
    courier,
    sessionTokenizer,
    logger,
    metrics,
    isShuttingDown: () => shuttingDown,
    now,
  };

  const publicApp = await createFastify(
    logger.child({ listener: "public" }),
    config.listener,
    config.trustedProxies,
  );
  // First: preflights are answered before the CSRF cookie or any route sees them.
  if (tracing) traceFastify(publicApp, tracing, "public");
  registerRequestMetrics(publicApp, metrics, "public");
  registerCors(publicApp, config.cors, publicApp.log);
  registerCsrfCookieHook(publicApp, ctx.cookies);
  registerHealthRoutes(publicApp, ctx);
  // Kratos serves /version on the admin router only; the public one is ours.
  if (config.oryExtensions) registerVersionRoutes(publicApp, ["/version"]);
  registerSchemaRoutes(publicApp, ctx);
  registerLoginRoutes(publicApp, ctx);
  registerRegistrationRoutes(publicApp, ctx);
  registerRecoveryRoutes(publicApp, ctx);
  registerVerificationRoutes(publicApp, ctx);
  registerSettingsRoutes(publicApp, ctx);
  registerLogoutRoutes(publicApp, ctx);
  registerErrorRoutes(publicApp, ctx);
  registerWhoamiRoute(publicApp, ctx);
  registerSessionsRoutes(publicApp, ctx);
  registerWebAuthnScriptRoute(publicApp);
  registerTokenExchangeRoute(publicApp, ctx);

  const adminApp = await createFastify(
    logger.child({ listener: "admin" }),
    config.listener,
    config.trustedProxies,
  );
  if (tracing) traceFastify(adminApp, tracing, "admin");
  registerRequestMetrics(adminApp, metrics, "admin");
  registerAdminTokenCheck(adminApp, config.oauth2.adminToken);
  registerMetricsRoutes(adminApp, metrics);
  registerHealthRoutes(adminApp, ctx);
  registerHealthRoutes(adminApp, ctx, "/admin");
  registerVersionRoutes(adminApp, ["/version", "/admin/version"]);
  registerAdminSchemaRedirects(adminApp, config.publicBaseUrl);
  registerIdentityRoutes(adminApp, ctx);
  registerCourierMessageRoutes(adminApp, ctx);
  registerAdminRecoveryRoutes(adminApp, ctx);
  registerAdminSessionRoutes(adminApp, ctx);

  const mailboxApp = config.mailbox.enabled
    ? createMailboxServer(db, logger.child({ listener: "mailbox" }), config.listener)
    : undefined;

  let oauth2: RunningOAuth2Service | undefined;
  let cleanup: { stop(): Promise<void> } | undefined;
  const closeAll = async () => {
    shuttingDown = true;
    await cleanup?.stop();
    await oauth2?.close();
    await courier.stop();
    await publicApp.close();
    await adminApp.close();
    await mailboxApp?.close();
    await db.destroy();
    await tracing?.shutdown();
  };
  try {
    await publicApp.listen({ host: config.publicHost, port: config.publicPort });
    await adminApp.listen({ host: config.adminHost, port: config.adminPort });
    await mailboxApp?.listen({ host: "127.0.0.1", port: config.mailbox.port });
    if (options.courierAutoDispatch !== false) await courier.start();
    oauth2 = await startOAuth2WithIdentityServer(config, {
      db,
      secrets,
      logger,
      now,
      metrics,
      tracing,
    });
    // The login and registration flows answer OAuth2 login challenges in-process.
    ctx.oauth2 = oauth2;
    // After the OAuth2 service's migrations: the schedule prunes its tables too.
    cleanup = startCleanupSchedule(db, now, logger.child({ component: "cleanup" }), config.cleanup);
  } catch (error) {
    await closeAll();
    throw error;
  }

  return {
    publicUrl: urlOf(publicApp),
    adminUrl: urlOf(adminApp),
    mailboxUrl: mailboxApp ? urlOf(mailboxApp) : undefined,
    courier,
    oauth2,
    close: closeAll,
  };
}
