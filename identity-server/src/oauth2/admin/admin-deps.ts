import type { Logger } from "pino";
import type { ChallengeDeps } from "../challenges/challenge-deps.ts";
import type { ClientServiceDeps } from "../clients/client-service.ts";

/** What the admin routes need from the running service. */
export interface AdminDeps extends ChallengeDeps {
  clients: ClientServiceDeps;
  logger: Logger;
  /** Ends identity-provider (Kratos) sessions whose login sessions were revoked. */
  endIdentityProviderSessions(sessionIds: string[]): Promise<void>;
}
