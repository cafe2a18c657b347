import { z } from "zod";
import { duration, flag, positive } from "./env-values.ts";

/** Kratos' `required_aal` settings: `aal1`, or the highest level the identity can reach. */
export type RequiredAal = "aal1" | "highest_available";

export interface SecondFactorConfig {
  /** Issuer shown in authenticator apps (Kratos' `totp.config.issuer`); defaults to the public host name. */
  totpIssuer: string;
  /** Offer codes by e-mail/SMS as a second factor (Kratos' `code.mfa_enabled`). */
  codeMfaEnabled: boolean;
  /** How long a trusted device skips the second factor. */
  trustedDeviceLifespanMs: number;
  /** AAL that /sessions/whoami, GET /sessions and logins ask for (`session.whoami.required_aal`). */
  whoamiRequiredAal: RequiredAal;
  /** AAL the settings flow asks for (`selfservice.flows.settings.required_aal`). */
  settingsRequiredAal: RequiredAal;
  /** An admin may extend a session only once it expires within this (`session.earliest_possible_extend`). */
  earliestPossibleExtendMs: number;
}

const positiveDuration = duration(positive, "a positive duration like 1h or 30m");

const requiredAal = z.enum(["aal1", "highest_available"]);

/** The environment variables of second factors and AAL; `loadConfig` validates them with the rest. */
export const secondFactorEnvShape = {
  IDENTITY_TOTP_ISSUER: z.string().trim().min(1).optional(),
  IDENTITY_CODE_MFA_ENABLED: flag.default(true),
  IDENTITY_TRUSTED_DEVICE_LIFESPAN: positiveDuration.default(720 * 3_600_000),
  IDENTITY_WHOAMI_REQUIRED_AAL: requiredAal.default("highest_available"),
  IDENTITY_SETTINGS_REQUIRED_AAL: requiredAal.default("highest_available"),
  IDENTITY_SESSION_EARLIEST_POSSIBLE_EXTEND: positiveDuration.optional(),
};

/** The second-factor variables and the three general ones their defaults depend on. */
type SecondFactorEnv = z.infer<z.ZodObject<typeof secondFactorEnvShape>> & {
  IDENTITY_PUBLIC_BASE_URL: string;
  IDENTITY_ORY_EXTENSIONS: boolean;
  IDENTITY_SESSION_LIFESPAN: number;
};

export function secondFactorConfigFrom(e: SecondFactorEnv): SecondFactorConfig {
  return {
    totpIssuer: e.IDENTITY_TOTP_ISSUER ?? new URL(e.IDENTITY_PUBLIC_BASE_URL).hostname,
    // Codes as a second factor chosen per address are ours (Kratos' code.mfa_enabled differs).
    codeMfaEnabled: e.IDENTITY_CODE_MFA_ENABLED && e.IDENTITY_ORY_EXTENSIONS,
    trustedDeviceLifespanMs: e.IDENTITY_TRUSTED_DEVICE_LIFESPAN,
    whoamiRequiredAal: e.IDENTITY_WHOAMI_REQUIRED_AAL,
    settingsRequiredAal: e.IDENTITY_SETTINGS_REQUIRED_AAL,
    // Kratos' default: as long as the session lifespan, i.e. a session can always be extended.
    earliestPossibleExtendMs:
      e.IDENTITY_SESSION_EARLIEST_POSSIBLE_EXTEND ?? e.IDENTITY_SESSION_LIFESPAN,
  };
}
