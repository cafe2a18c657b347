export { loadConfig, ConfigError, type IdentityServerConfig } from "./config/config.ts";
export { startIdentityServer, type RunningIdentityServer, type StartOptions } from "./server.ts";
