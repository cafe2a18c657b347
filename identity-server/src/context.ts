import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { IdentityServerConfig } from "./config/config.ts";
import type { Courier } from "./courier/courier.ts";
import type { CookieSettings } from "./http/cookies.ts";
import type { ReturnToPolicy } from "./http/return-to.ts";
import type { Secrets } from "./secret.ts";
import type { IdentitySchema } from "./identity/identity-schema.ts";
import type { IdentityMetrics } from "./metrics/identity-metrics.ts";
import type { OAuth2LoginRequests } from "./oauth2/oauth2-service.ts";
import type { SessionTokenizer } from "./session/tokenizer.ts";
import type { Database } from "./store/schema.ts";

/** What every route module needs, created once at start-up. */
export interface ServerContext {
  config: IdentityServerConfig;
  db: Kysely<Database>;
  schema: IdentitySchema;
  cookies: CookieSettings;
  returnToPolicy: ReturnToPolicy;
  /** The current server secret (the first of `secrets`): new one-time codes are HMACs under it. */
  secret: string;
  /** Every accepted secret, newest first: codes and backup codes made under any of them still match. */
  secrets: Secrets;
  /** Queues e-mails and text messages inside the caller's transaction. */
  courier: Courier;
  logger: Logger;
  /** Signs sessions as JWTs for `/sessions/whoami?tokenize_as=`. */
  sessionTokenizer: SessionTokenizer;
  /**
   * The OAuth2 service's login requests (Kratos' Hydra admin client); set once the service has
   * started, absent when it is disabled.
   */
  oauth2?: OAuth2LoginRequests | undefined;
  /** The server's Prometheus metrics (served on the admin listeners). */
  metrics: IdentityMetrics;
  /** True from the start of a shutdown: readiness answers 503 while requests drain. */
  isShuttingDown: () => boolean;
  /** Injectable clock so tests can expire flows without sleeping. */
  now: () => Date;
}
