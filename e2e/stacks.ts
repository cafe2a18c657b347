import { scaled, timeScale } from "./timing.ts";

/**
 * The e2e tests run three copies of the whole system, each on its own ports and with a fresh data
 * directory, so a developer's `npm start` and its data are never touched. The "timed" copy has
 * short time limits (privileged session, idle timeout) for the tests about time running out; the
 * "strict" one runs the identity server in strict mode (below).
 */
export type Stack = {
  portalUrl: string;
  demoUrl: string;
  identityAdminUrl: string;
  mailboxUrl: string;
  oauth2PublicUrl: string;
  oauth2AdminUrl: string;
  env: Record<string, string>;
};

function stack(offset: number, limits: Record<string, string>): Stack {
  const port = {
    portal: 3100 + offset,
    demo: 4100 + offset,
    identityPublic: 4533 + offset,
    identityAdmin: 4534 + offset,
    mailbox: 4536 + offset,
    oauth2Public: 4544 + offset,
    oauth2Admin: 4545 + offset,
  };
  return {
    portalUrl: `http://localhost:${port.portal}`,
    demoUrl: `http://localhost:${port.demo}`,
    identityAdminUrl: `http://127.0.0.1:${port.identityAdmin}`,
    mailboxUrl: `http://127.0.0.1:${port.mailbox}`,
    oauth2PublicUrl: `http://localhost:${port.oauth2Public}`,
    oauth2AdminUrl: `http://127.0.0.1:${port.oauth2Admin}`,
    env: {
      PORTAL_PORT: String(port.portal),
      DEMO_PORT: String(port.demo),
      IDENTITY_PUBLIC_PORT: String(port.identityPublic),
      IDENTITY_ADMIN_PORT: String(port.identityAdmin),
      IDENTITY_MAILBOX_PORT: String(port.mailbox),
      IDENTITY_OAUTH2_PUBLIC_PORT: String(port.oauth2Public),
      IDENTITY_OAUTH2_ADMIN_PORT: String(port.oauth2Admin),
      LOG_LEVEL: "warn",
      IDENTITY_LOG_LEVEL: "warn",
      // Every test's browser comes from 127.0.0.1, so the per-IP code-send limit would soon refuse
      // them all; it has tests of its own (identity-server/src/rate-limit).
      IDENTITY_RATE_LIMIT_CODE_SENDS_PER_IP: "0",
      ...limits,
    },
  };
}

export const mainStack = stack(0, {});

/**
 * Seconds a fresh sign-in stays privileged on the timed stack. Re-confirming and saving again
 * must fit in it (about 2 s on an idle machine), so it grows with the machine's time scale.
 */
export const timedPrivilegedSeconds = Math.ceil(6 * timeScale);

/** Seconds a self-service flow lives on the timed stack. */
export const timedFlowSeconds = 15;

export const timedStack = stack(50, {
  IDENTITY_FLOW_LIFESPAN: `${timedFlowSeconds}s`,
  IDENTITY_PRIVILEGED_SESSION_MAX_AGE: `${timedPrivilegedSeconds}s`,
  // Scaled: on a busy machine a journey's pauses between clicks must not look like idleness.
  PORTAL_IDLE_TIMEOUT_MS: String(scaled(12_000)),
  PORTAL_IDLE_PROMPT_MS: String(scaled(5_000)),
});

/**
 * Seconds a fresh sign-in stays privileged on the strict stack, as on the timed one: its settings
 * journeys (a new authenticator app, backup codes) save within it, and one test waits it out.
 */
export const strictPrivilegedSeconds = timedPrivilegedSeconds;

/** Wrong passwords for one identifier before the strict stack answers 429. */
export const strictPasswordsPerIdentifier = 2;

/**
 * Strict mode (issue 15): the identity server with every addition of ours off
 * (IDENTITY_ORY_EXTENSIONS=false), answering as Kratos and Hydra would; strict-mode.spec.ts runs
 * the portal's core journeys against it.
 */
export const strictStack = stack(100, {
  IDENTITY_ORY_EXTENSIONS: "false",
  IDENTITY_PRIVILEGED_SESSION_MAX_AGE: `${strictPrivilegedSeconds}s`,
  // Low, so one journey meets the rate limit (strict: HTTP 429 and Retry-After) quickly.
  IDENTITY_RATE_LIMIT_PASSWORD_PER_IDENTIFIER: String(strictPasswordsPerIdentifier),
});
