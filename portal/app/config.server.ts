import { z } from "zod";
import type { ListenerLimits } from "./http/listener-limits.server.ts";
import { parseTrustedProxies } from "./http/trusted-proxies.server.ts";
import type { SessionSettings } from "./session/session-settings.ts";

const httpUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .transform((value) => value.replace(/\/+$/, ""));

/** Browser timers take at most a signed 32-bit delay; longer ones would fire at once. */
const milliseconds = z.coerce
  .number({ error: "must be a number of milliseconds" })
  .int({ error: "must be a whole number of milliseconds" })
  .min(1, { error: "must be at least 1 ms" })
  .max(2_147_483_646, { error: "must be at most 2147483646 ms (about 24.8 days)" });

const configSchema = z.object({
  PORTAL_HOST: z.string().min(1).default("127.0.0.1"),
  PORTAL_PORT: z.coerce
    .number({ error: "must be a port number" })
    .int()
    .min(1)
    .max(65535)
    .default(3000),
  PORTAL_PUBLIC_URL: httpUrl.default("http://localhost:3000"),
  KRATOS_PUBLIC_URL: httpUrl.default("http://127.0.0.1:4433"),
  SSO_PORTAL_URL: httpUrl.default("http://localhost:4000"),
  HYDRA_ADMIN_URL: httpUrl.default("http://127.0.0.1:4445"),
  HYDRA_PUBLIC_URL: httpUrl.default("http://localhost:4444"),
  HYDRA_ADMIN_TOKEN: z.string().min(1).optional(),
  SUPPORT_URL: z
    .string()
    .regex(/^(https?:|mailto:)/, "must be an http(s) or mailto: URL")
    .default("mailto:support@example.gov"),
  COOKIE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, "must be a bare domain such as example.gov")
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PORTAL_IDLE_TIMEOUT_MS: milliseconds.default(3_600_000),
  PORTAL_IDLE_PROMPT_MS: milliseconds.default(300_000),
  PORTAL_FINGERPRINT_REVALIDATE_MS: milliseconds.default(900_000),
  PORTAL_HTTP_HEADERS_TIMEOUT_MS: milliseconds.default(10_000),
  PORTAL_HTTP_REQUEST_TIMEOUT_MS: milliseconds.default(30_000),
  PORTAL_HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds.default(5_000),
  PORTAL_SHUTDOWN_GRACE_MS: milliseconds.default(10_000),
  PORTAL_METRICS_PORT: z.coerce
    .number({ error: "must be a port number (0: no metrics)" })
    .int({ error: "must be a port number (0: no metrics)" })
    .min(0, { error: "must be a port number (0: no metrics)" })
    .max(65535, { error: "must be a port number (0: no metrics)" })
    .default(0),
  PORTAL_TRUSTED_PROXIES: z
    .string()
    .default("loopback")
    .transform((value, ctx) => {
      try {
        return parseTrustedProxies(value);
      } catch (error) {
        ctx.issues.push({ code: "custom", input: value, message: (error as Error).message });
        return z.NEVER;
      }
    }),
  PORTAL_COOKIE_SECRET: z.string().min(32, { error: "must be at least 32 characters" }).optional(),
  // OpenTelemetry's standard variable: set, a span per request goes to `<url>/v1/traces`.
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
});

/** The prompt opens this long before the timeout, so it must be the shorter of the two. */
const checkedSchema = configSchema
  .refine((env) => env.PORTAL_IDLE_PROMPT_MS < env.PORTAL_IDLE_TIMEOUT_MS, {
    path: ["PORTAL_IDLE_PROMPT_MS"],
    error: "must be shorter than PORTAL_IDLE_TIMEOUT_MS",
  })
  // Node refuses a headers timeout longer than the whole request's.
  .refine((env) => env.PORTAL_HTTP_HEADERS_TIMEOUT_MS <= env.PORTAL_HTTP_REQUEST_TIMEOUT_MS, {
    path: ["PORTAL_HTTP_HEADERS_TIMEOUT_MS"],
    error: "must not be longer than PORTAL_HTTP_REQUEST_TIMEOUT_MS",
  });

export interface PortalConfig {
  host: string;
  port: number;
  /** Origin the browser uses for the portal, e.g. http://localhost:3000. */
  publicUrl: string;
  /** Where the portal's server reaches the identity service's public API. */
  identityPublicUrl: string;
  /** The identity service as the browser sees it: through the portal's /api/kratos proxy. */
  identityBrowserUrl: string;
  ssoPortalUrl: string;
  /** The OAuth2 service (Hydra API): its admin API, reached server-side only. */
  oauth2AdminUrl: string;
  /** The OAuth2 service as the browser sees it (/oauth2/auth …): allowed as a form-action target. */
  oauth2PublicUrl: string;
  /** Sent as `Authorization: Bearer …` with every OAuth2 admin call, when set. */
  oauth2AdminToken: string | undefined;
  supportUrl: string;
  cookieDomain: string | undefined;
  /** Key of the portal's own signed cookies (the account named on the second factor). */
  cookieSecret: string | undefined;
  logLevel: z.infer<typeof configSchema>["LOG_LEVEL"];
  /** Idle timeout and fingerprint timing, sent to the browser with the root loader's data. */
  session: SessionSettings;
  /** Timeouts of the portal's HTTP listener (slow or idle connections). */
  listener: ListenerLimits;
  /** How long requests in flight may take to finish after SIGTERM before they are cut off. */
  shutdownGraceMs: number;
  /** Express' `trust proxy`: the proxies whose X-Forwarded-For names the browser. */
  trustedProxies: string[];
  /** Port of the Prometheus listener on 127.0.0.1; undefined: no metrics. */
  metricsPort: number | undefined;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: tracing on, spans sent there; undefined: off (no SDK loaded). */
  otlpEndpoint: string | undefined;
}

export function parseConfig(env: Record<string, string | undefined>): PortalConfig {
  // An empty variable means "not set", so the default applies instead of a parse error.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = checkedSchema.safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.join(".")}: ${issue.message}`,
    );
    throw new Error(`Invalid portal configuration — ${problems.join("; ")}`);
  }
  const env_ = result.data;
  return {
    host: env_.PORTAL_HOST,
    port: env_.PORTAL_PORT,
    publicUrl: env_.PORTAL_PUBLIC_URL,
    identityPublicUrl: env_.KRATOS_PUBLIC_URL,
    identityBrowserUrl: `${env_.PORTAL_PUBLIC_URL}/api/kratos`,
    ssoPortalUrl: env_.SSO_PORTAL_URL,
    oauth2AdminUrl: env_.HYDRA_ADMIN_URL,
    oauth2PublicUrl: env_.HYDRA_PUBLIC_URL,
    oauth2AdminToken: env_.HYDRA_ADMIN_TOKEN,
    supportUrl: env_.SUPPORT_URL,
    cookieDomain: env_.COOKIE_DOMAIN,
    cookieSecret: env_.PORTAL_COOKIE_SECRET,
    logLevel: env_.LOG_LEVEL,
    session: {
      idleTimeoutMs: env_.PORTAL_IDLE_TIMEOUT_MS,
      promptBeforeIdleMs: env_.PORTAL_IDLE_PROMPT_MS,
      fingerprintRevalidateMs: env_.PORTAL_FINGERPRINT_REVALIDATE_MS,
    },
    listener: {
      headersTimeoutMs: env_.PORTAL_HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env_.PORTAL_HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: env_.PORTAL_HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    shutdownGraceMs: env_.PORTAL_SHUTDOWN_GRACE_MS,
    trustedProxies: env_.PORTAL_TRUSTED_PROXIES,
    metricsPort: env_.PORTAL_METRICS_PORT === 0 ? undefined : env_.PORTAL_METRICS_PORT,
    otlpEndpoint: env_.OTEL_EXPORTER_OTLP_ENDPOINT,
  };
}

let loaded: PortalConfig | undefined;

/** The configuration, read from the environment once per process. */
export function getConfig(): PortalConfig {
  loaded ??= parseConfig(process.env);
  return loaded;
}
