import { fileURLToPath } from "node:url";
import path from "node:path";
import { z } from "zod";
import { commaList, duration, flag, httpUrl, port, positive } from "./env-values.ts";
import { oauth2ConfigFrom, oauth2EnvShape, type OAuth2Config } from "../oauth2/oauth2-config.ts";
import {
  tokenizerConfigFrom,
  tokenizerEnvShape,
  type SessionTokenizerConfig,
} from "./tokenizer-config.ts";
import { checkListenerEnv, listenerConfigFrom, listenerEnvShape } from "./listener-config.ts";
import { cleanupConfigFrom, cleanupEnvShape, type CleanupConfig } from "./cleanup-config.ts";
import { checkSecretsEnv, secretsEnvShape, secretsFrom } from "./secrets-config.ts";
import { adminListenerEnvShape, checkAdminListenerEnv } from "./admin-listener-config.ts";
import { checkCorsEnv, corsEnvShape, identityCorsConfigFrom } from "./cors-config.ts";
import { trustedProxiesEnvShape } from "./trusted-proxies-config.ts";
import { shutdownEnvShape } from "./shutdown-config.ts";
import {
  courierConfigFrom,
  courierEnvShape,
  mailboxConfigFrom,
  type CourierConfig,
  type MailboxConfig,
} from "./courier-config.ts";
import {
  secondFactorConfigFrom,
  secondFactorEnvShape,
  type SecondFactorConfig,
} from "./second-factor-config.ts";
import { tracingEnvShape } from "./tracing-config.ts";
import {
  checkWebAuthnEnv,
  webAuthnConfigFrom,
  webAuthnEnvShape,
  type WebAuthnConfig,
} from "../methods/webauthn-base/webauthn-config.ts";
import type { CorsConfig } from "../http/cors.ts";
import type { ListenerLimits } from "../http/listener-limits.ts";
import {
  rateLimitConfigFrom,
  rateLimitEnvShape,
  type RateLimitConfig,
} from "./rate-limit-config.ts";

export interface IdentityServerConfig {
  publicHost: string;
  publicPort: number;
  /** Loopback unless IDENTITY_ADMIN_HOST says otherwise (then the admin token is required). */
  adminHost: string;
  adminPort: number;
  /** Without a trailing slash, e.g. http://localhost:3000/api/kratos */
  publicBaseUrl: string;
  /** Without a trailing slash, e.g. http://localhost:3000 */
  uiBaseUrl: string;
  defaultReturnUrl: string;
  allowedReturnUrls: string[];
  dataDir: string;
  /** Apply pending migrations at start (under the database's write lock); false refuses to start. */
  migrateOnStart: boolean;
  /** SQLite's `synchronous` for the store: "normal" (no disk flush per commit) or "full". */
  sqliteSynchronous: "normal" | "full";
  schemaPath: string;
  passwordMinLength: number;
  /** The product's words (its name…) a password may not be built on (NIST SP 800-63B context words). */
  passwordContextWords: string[];
  sessionLifespanMs: number;
  flowLifespanMs: number;
  /** IDENTITY_SECRETS (or the deprecated IDENTITY_SECRET), newest first; undefined: generated. */
  secrets: readonly string[] | undefined;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** How long a recovery or verification code stays usable. */
  codeLifespanMs: number;
  /** Code submissions allowed per flow, for the life of the flow (resends do not reset it). */
  codeMaxSubmissions: number;
  /** Credential and identifier changes need a session authenticated at most this long ago. */
  privilegedSessionMaxAgeMs: number;
  /** Revoke the identity's other sessions when an account is recovered. */
  recoveryRevokesSessions: boolean;
  /**
   * Kratos' `selfservice.flows.recovery.notify_unknown_recipients`: an address without an account
   * gets a message saying so. On here by default, so both answers cost the same work.
   */
  recoveryNotifiesUnknownRecipients: boolean;
  /** Refuse sign-in until the identity has at least one verified address. */
  requireVerifiedAddress: boolean;
  /** Refuse it the legacy way: message 4000010 in the login flow instead of a verification flow. */
  legacyRequireVerifiedLoginError: boolean;
  courier: CourierConfig;
  mailbox: MailboxConfig;
  secondFactor: SecondFactorConfig;
  /** The WebAuthn relying party of passkeys and security keys (IDENTITY_WEBAUTHN_*). */
  webauthn: WebAuthnConfig;
  /** The Hydra-compatible OAuth2 service (src/oauth2). */
  oauth2: OAuth2Config;
  /** JWTs of a session (`/sessions/whoami?tokenize_as=`). */
  sessionTokenizer: SessionTokenizerConfig;
  /** Limits on wrong passwords, code sends and wrong second factors (src/rate-limit). */
  rateLimits: RateLimitConfig;
  /** Timeouts of every listener: slow requests and idle keep-alive connections. */
  listener: ListenerLimits;
  /** The pruning of expired flows, sessions, codes, messages and OAuth2 rows (IDENTITY_CLEANUP_*). */
  cleanup: CleanupConfig;
  /** Kratos' `serve.public.cors` on the public listener (IDENTITY_CORS_*). */
  cors: CorsConfig;
  /**
   * Our additions to Kratos and Hydra (trusted devices, codes as a second factor per address,
   * messages 901xxxx, …; README "Our additions and strict mode"). False answers as Kratos and
   * Hydra would; protections without an API of their own (rate limits, body caps) stay on.
   */
  oryExtensions: boolean;
  /** IDENTITY_TRUSTED_PROXIES: proxies whose X-Forwarded-* headers are believed (none: `[]`). */
  trustedProxies: string[];
  /** IDENTITY_SHUTDOWN_GRACE: how long requests in flight may finish after SIGTERM. */
  shutdownGraceMs: number;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: tracing on, spans sent there; unset: off. */
  otlpEndpoint: string | undefined;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

const defaultSchemaPath = fileURLToPath(new URL("../../identity.schema.json", import.meta.url));

const positiveDuration = duration(positive, "a positive duration like 1h or 30m");

const envSchema = z.object({
  IDENTITY_PUBLIC_HOST: z.string().trim().min(1).default("127.0.0.1"),
  IDENTITY_PUBLIC_PORT: port.default(4433),
  IDENTITY_ADMIN_PORT: port.default(4434),
  IDENTITY_PUBLIC_BASE_URL: httpUrl.default("http://localhost:3000/api/kratos"),
  IDENTITY_UI_BASE_URL: httpUrl.default("http://localhost:3000"),
  IDENTITY_DEFAULT_RETURN_URL: httpUrl.default("http://localhost:3000/"),
  IDENTITY_ALLOWED_RETURN_URLS: z
    .string()
    .default("http://localhost:3000/,http://localhost:4000/")
    .transform(commaList)
    .pipe(z.array(httpUrl)),
  IDENTITY_DATA_DIR: z.string().trim().min(1).default("./data"),
  IDENTITY_MIGRATE_ON_START: flag.default(true),
  IDENTITY_SQLITE_SYNCHRONOUS: z.enum(["normal", "full"]).default("normal"),
  IDENTITY_SCHEMA_PATH: z.string().trim().min(1).default(defaultSchemaPath),
  IDENTITY_PASSWORD_MIN_LENGTH: z.coerce.number().int().min(6).max(1024).default(12),
  IDENTITY_PASSWORD_CONTEXT_WORDS: z
    .string()
    .default("agency,portal,product,sso,signin,login")
    .transform(commaList),
  IDENTITY_SESSION_LIFESPAN: positiveDuration.default(24 * 3_600_000),
  IDENTITY_FLOW_LIFESPAN: positiveDuration.default(3_600_000),
  IDENTITY_LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info"),
  IDENTITY_CODE_LIFESPAN: positiveDuration.default(3_600_000),
  IDENTITY_CODE_MAX_SUBMISSIONS: z.coerce.number().int().min(1).max(100).default(5),
  IDENTITY_PRIVILEGED_SESSION_MAX_AGE: positiveDuration.default(3_600_000),
  IDENTITY_RECOVERY_REVOKE_SESSIONS: flag.default(true),
  IDENTITY_RECOVERY_NOTIFY_UNKNOWN_RECIPIENTS: flag.default(true),
  IDENTITY_REQUIRE_VERIFIED_ADDRESS: flag.default(false),
  IDENTITY_LEGACY_REQUIRE_VERIFIED_LOGIN_ERROR: flag.default(false),
  ...courierEnvShape,
  ...secondFactorEnvShape,
  ...webAuthnEnvShape,
  IDENTITY_ORY_EXTENSIONS: flag.default(true),
  ...oauth2EnvShape,
  ...tokenizerEnvShape,
  ...rateLimitEnvShape,
  ...listenerEnvShape,
  ...cleanupEnvShape,
  ...secretsEnvShape,
  ...corsEnvShape,
  ...trustedProxiesEnvShape,
  ...shutdownEnvShape,
  ...tracingEnvShape,
  ...adminListenerEnvShape,
});

/**
 * Kratos and Hydra have no admin token. Strict mode cannot honour one, and dropping it silently
 * would open the admin APIs, so the two together stop the start.
 */
function checkStrictModeEnv(
  env: { IDENTITY_ORY_EXTENSIONS: boolean; IDENTITY_ADMIN_TOKEN?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (!env.IDENTITY_ORY_EXTENSIONS && env.IDENTITY_ADMIN_TOKEN !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["IDENTITY_ADMIN_TOKEN"],
      message:
        "is one of our additions to Kratos and Hydra; unset it, or set IDENTITY_ORY_EXTENSIONS=true",
    });
  }
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/**
 * Reads the identity server's configuration from environment variables once. Empty strings count as
 * unset so that `FOO=` in a shell or compose file falls back to the default. A bad value throws a
 * ConfigError naming the variable.
 */
export function loadConfig(env: Record<string, string | undefined>): IdentityServerConfig {
  const present: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== "") present[key] = value;
  }
  const parsed = envSchema
    .superRefine(checkListenerEnv)
    .superRefine(checkCorsEnv)
    .superRefine(checkStrictModeEnv)
    .superRefine(checkSecretsEnv)
    .superRefine(checkAdminListenerEnv)
    .superRefine(checkWebAuthnEnv)
    .safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const variable = String(issue.path[0] ?? "environment");
      return `${variable}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid identity server configuration: ${problems.join("; ")}`);
  }
  const e = parsed.data;
  return {
    publicHost: e.IDENTITY_PUBLIC_HOST,
    publicPort: e.IDENTITY_PUBLIC_PORT,
    adminHost: e.IDENTITY_ADMIN_HOST,
    adminPort: e.IDENTITY_ADMIN_PORT,
    publicBaseUrl: withoutTrailingSlash(e.IDENTITY_PUBLIC_BASE_URL),
    uiBaseUrl: withoutTrailingSlash(e.IDENTITY_UI_BASE_URL),
    defaultReturnUrl: e.IDENTITY_DEFAULT_RETURN_URL,
    allowedReturnUrls: e.IDENTITY_ALLOWED_RETURN_URLS,
    dataDir: path.resolve(e.IDENTITY_DATA_DIR),
    migrateOnStart: e.IDENTITY_MIGRATE_ON_START,
    sqliteSynchronous: e.IDENTITY_SQLITE_SYNCHRONOUS,
    schemaPath: path.resolve(e.IDENTITY_SCHEMA_PATH),
    passwordMinLength: e.IDENTITY_PASSWORD_MIN_LENGTH,
    // The authenticator apps' issuer is the product's name as people see it: a context word too.
    passwordContextWords: [
      ...e.IDENTITY_PASSWORD_CONTEXT_WORDS,
      ...(e.IDENTITY_TOTP_ISSUER ? [e.IDENTITY_TOTP_ISSUER] : []),
    ],
    sessionLifespanMs: e.IDENTITY_SESSION_LIFESPAN,
    flowLifespanMs: e.IDENTITY_FLOW_LIFESPAN,
    secrets: secretsFrom(e),
    logLevel: e.IDENTITY_LOG_LEVEL,
    codeLifespanMs: e.IDENTITY_CODE_LIFESPAN,
    codeMaxSubmissions: e.IDENTITY_CODE_MAX_SUBMISSIONS,
    privilegedSessionMaxAgeMs: e.IDENTITY_PRIVILEGED_SESSION_MAX_AGE,
    recoveryRevokesSessions: e.IDENTITY_RECOVERY_REVOKE_SESSIONS,
    recoveryNotifiesUnknownRecipients: e.IDENTITY_RECOVERY_NOTIFY_UNKNOWN_RECIPIENTS,
    requireVerifiedAddress: e.IDENTITY_REQUIRE_VERIFIED_ADDRESS,
    legacyRequireVerifiedLoginError: e.IDENTITY_LEGACY_REQUIRE_VERIFIED_LOGIN_ERROR,
    courier: courierConfigFrom(e),
    mailbox: mailboxConfigFrom(e),
    secondFactor: secondFactorConfigFrom(e),
    webauthn: webAuthnConfigFrom(e),
    oauth2: {
      ...oauth2ConfigFrom(e),
      oryExtensions: e.IDENTITY_ORY_EXTENSIONS,
      adminHost: e.IDENTITY_OAUTH2_ADMIN_HOST,
    },
    sessionTokenizer: tokenizerConfigFrom(e),
    rateLimits: rateLimitConfigFrom(e),
    listener: listenerConfigFrom(e),
    cleanup: cleanupConfigFrom(e),
    cors: identityCorsConfigFrom(e),
    oryExtensions: e.IDENTITY_ORY_EXTENSIONS,
    trustedProxies: e.IDENTITY_TRUSTED_PROXIES,
    shutdownGraceMs: e.IDENTITY_SHUTDOWN_GRACE,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
  };
}
