import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { pino, type Logger } from "pino";
import { registerIdentityRoutes } from "./admin/identities.ts";
import type { IdentityServerConfig } from "./config/config.ts";
import type { ServerContext } from "./context.ts";
import { registerErrorRoutes } from "./flows/errors.ts";
import { registerLoginRoutes } from "./flows/login.ts";
import { registerLogoutRoutes } from "./flows/logout.ts";
import { registerRegistrationRoutes } from "./flows/registration.ts";
import { registerHealthRoutes } from "./health.ts";
import { cookieSettings } from "./http/cookies.ts";
import { createFastify } from "./http/fastify-setup.ts";
import { registerCsrfCookieHook } from "./http/csrf-cookie-hook.ts";
import { IdentitySchema } from "./identity/identity-schema.ts";
import { registerSchemaRoutes } from "./identity/schema-routes.ts";
import { loadOrCreateSecret } from "./secret.ts";
import { registerWhoamiRoute } from "./session/whoami.ts";
import { openDatabase } from "./store/database.ts";

export interface RunningIdentityServer {
  publicUrl: string;
  adminUrl: string;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Replaces the wall clock (tests use it to expire flows without waiting). */
  now?: () => Date;
  logger?: Logger;
}

function urlOf(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** Opens the data dir, then starts the public and the (loopback-only) admin listener. */
export async function startIdentityServer(
  config: IdentityServerConfig,
  options: StartOptions = {},
): Promise<RunningIdentityServer> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  const db = await openDatabase(config.dataDir);
  const ctx: ServerContext = {
    config,
    db,
    schema: IdentitySchema.load(config.schemaPath),
    cookies: cookieSettings(
      config.publicBaseUrl,
      loadOrCreateSecret(config.dataDir, config.secret),
    ),
    returnToPolicy: {
      defaultReturnUrl: config.defaultReturnUrl,
      allowedReturnUrls: config.allowedReturnUrls,
      publicBaseUrl: config.publicBaseUrl,
    },
    now: options.now ?? (() => new Date()),
  };

  const publicApp = await createFastify(logger.child({ listener: "public" }));
  registerCsrfCookieHook(publicApp, ctx.cookies);
  registerHealthRoutes(publicApp, ctx);
  registerSchemaRoutes(publicApp, ctx);
  registerLoginRoutes(publicApp, ctx);
  registerRegistrationRoutes(publicApp, ctx);
  registerLogoutRoutes(publicApp, ctx);
  registerErrorRoutes(publicApp, ctx);
  registerWhoamiRoute(publicApp, ctx);

  const adminApp = await createFastify(logger.child({ listener: "admin" }));
  registerHealthRoutes(adminApp, ctx);
  registerHealthRoutes(adminApp, ctx, "/admin");
  registerIdentityRoutes(adminApp, ctx);

  try {
    await publicApp.listen({ host: config.publicHost, port: config.publicPort });
    await adminApp.listen({ host: "127.0.0.1", port: config.adminPort });
  } catch (error) {
    await publicApp.close();
    await adminApp.close();
    await db.destroy();
    throw error;
  }

  return {
    publicUrl: urlOf(publicApp),
    adminUrl: urlOf(adminApp),
    async close() {
      await publicApp.close();
      await adminApp.close();
      await db.destroy();
    },
  };
}
