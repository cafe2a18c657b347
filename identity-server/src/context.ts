import type { Kysely } from "kysely";
import type { IdentityServerConfig } from "./config/config.ts";
import type { CookieSettings } from "./http/cookies.ts";
import type { ReturnToPolicy } from "./http/return-to.ts";
import type { IdentitySchema } from "./identity/identity-schema.ts";
import type { Database } from "./store/schema.ts";

/** What every route module needs, created once at start-up. */
export interface ServerContext {
  config: IdentityServerConfig;
  db: Kysely<Database>;
  schema: IdentitySchema;
  cookies: CookieSettings;
  returnToPolicy: ReturnToPolicy;
  /** Injectable clock so tests can expire flows without sleeping. */
  now: () => Date;
}
