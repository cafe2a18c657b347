import { pino } from "pino";
import { ConfigError, loadConfig, type IdentityServerConfig } from "./config/config.ts";
import { startIdentityServer } from "./server.ts";

let config: IdentityServerConfig;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

const logger = pino({ level: config.logLevel });
const server = await startIdentityServer(config, { logger });
logger.info(
  {
    publicUrl: server.publicUrl,
    adminUrl: server.adminUrl,
    publicBaseUrl: config.publicBaseUrl,
    mailboxUrl: server.mailboxUrl,
    oauth2PublicUrl: server.oauth2?.publicUrl,
    oauth2AdminUrl: server.oauth2?.adminUrl,
  },
  "identity server started",
);

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  logger.info({ signal }, "identity server stopping");
  try {
    await server.close();
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, "identity server did not stop cleanly");
    process.exit(1);
  }
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
