import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { ListenerLimits } from "./listener-limits.ts";

// Empty values count as unset, so `VAR=` in a shell or .env file falls back to the default.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema);

function isLoopback(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

const issuerUrl = z
  .url()
  .refine((value) => !new URL(value).search && !new URL(value).hash, {
    message: "must have no query or fragment",
  })
  .refine(
    (value) => {
      const url = new URL(value);
      return url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url.hostname));
    },
    { message: "must be https (plain http only for localhost or a loopback address)" },
  );

const milliseconds = z.coerce
  .number({ error: "must be a number of milliseconds" })
  .int({ error: "must be a whole number of milliseconds" })
  .min(1, { error: "must be at least 1 ms" })
  .max(2_147_483_647, { error: "must be at most 2147483647 ms" });

const configSchema = z.object({
  DEMO_HOST: optional(z.string().min(1).default("127.0.0.1")),
  DEMO_PORT: optional(z.coerce.number().int().min(0).max(65535).default(4000)),
  DEMO_PUBLIC_URL: optional(z.url().default("http://localhost:4000")),
  PORTAL_PUBLIC_URL: optional(z.url().default("http://localhost:3000")),
  DEMO_OIDC_ISSUER: optional(issuerUrl.default("http://localhost:4444")),
  DEMO_OIDC_CLIENT_ID: optional(z.string().min(1).default("demo-portal")),
  DEMO_OIDC_CLIENT_SECRET: optional(
    z.string({ error: "is required (the client secret registered at the OAuth2 service)" }),
  ),
  DEMO_COOKIE_SECRET: optional(
    z.string().min(32, { message: "must be at least 32 characters" }).optional(),
  ),
  LOG_LEVEL: optional(
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ),
  DEMO_HTTP_HEADERS_TIMEOUT_MS: optional(milliseconds.default(10_000)),
  DEMO_HTTP_REQUEST_TIMEOUT_MS: optional(milliseconds.default(30_000)),
  DEMO_HTTP_KEEP_ALIVE_TIMEOUT_MS: optional(milliseconds.default(5_000)),
});

// Node refuses a headers timeout longer than the whole request's.
const checkedSchema = configSchema.refine(
  (env) => env.DEMO_HTTP_HEADERS_TIMEOUT_MS <= env.DEMO_HTTP_REQUEST_TIMEOUT_MS,
  {
    path: ["DEMO_HTTP_HEADERS_TIMEOUT_MS"],
    error: "must not be longer than DEMO_HTTP_REQUEST_TIMEOUT_MS",
  },
);

export type DemoConfig = {
  host: string;
  port: number;
  /** Origin (and optional path) the browser uses for this app, without a trailing slash. */
  publicUrl: string;
  portalUrl: string;
  oidc: {
    issuer: string;
    clientId: string;
    clientSecret: string;
    /** openid-client refuses http unless told; only loopback issuers get here with http. */
    allowInsecureRequests: boolean;
  };
  /** Keys the sealed login-state cookie and the sign-out form token. */
  cookieSecret: string;
  /** Cookies get `Secure` when the app is served over https. */
  secureCookies: boolean;
  logLevel: string;
  /** Timeouts of the listener (slow or idle connections). */
  listener: ListenerLimits;
};

export function loadDemoConfig(env: Record<string, string | undefined>): DemoConfig {
  const parsed = checkedSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".")}: ${issue.message}`,
    );
    throw new Error(`Invalid demo-portal configuration:\n  ${problems.join("\n  ")}`);
  }
  const c = parsed.data;
  const publicUrl = c.DEMO_PUBLIC_URL.replace(/\/$/, "");
  const issuer = c.DEMO_OIDC_ISSUER.replace(/\/$/, "");
  return {
    host: c.DEMO_HOST,
    port: c.DEMO_PORT,
    publicUrl,
    portalUrl: c.PORTAL_PUBLIC_URL.replace(/\/$/, ""),
    oidc: {
      issuer,
      clientId: c.DEMO_OIDC_CLIENT_ID,
      clientSecret: c.DEMO_OIDC_CLIENT_SECRET,
      allowInsecureRequests: new URL(issuer).protocol === "http:",
    },
    // A random default only lives as long as the process: sign-ins in progress (and sessions,
    // which are in memory anyway) do not survive a restart, which is fine for a demo.
    cookieSecret: c.DEMO_COOKIE_SECRET ?? randomBytes(32).toString("base64url"),
    secureCookies: new URL(publicUrl).protocol === "https:",
    logLevel: c.LOG_LEVEL,
    listener: {
      headersTimeoutMs: c.DEMO_HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: c.DEMO_HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: c.DEMO_HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
  };
}
