import { z } from "zod";

const httpUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .transform((value) => value.replace(/\/+$/, ""));

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
  SUPPORT_URL: z
    .string()
    .regex(/^(https?:|mailto:)/, "must be an http(s) or mailto: URL")
    .default("mailto:support@example.gov"),
  COOKIE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, "must be a bare domain such as example.gov")
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
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
  supportUrl: string;
  cookieDomain: string | undefined;
  logLevel: z.infer<typeof configSchema>["LOG_LEVEL"];
}

export function parseConfig(env: Record<string, string | undefined>): PortalConfig {
  // An empty variable means "not set", so the default applies instead of a parse error.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = configSchema.safeParse(present);
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
    supportUrl: env_.SUPPORT_URL,
    cookieDomain: env_.COOKIE_DOMAIN,
    logLevel: env_.LOG_LEVEL,
  };
}

let loaded: PortalConfig | undefined;

/** The configuration, read from the environment once per process. */
export function getConfig(): PortalConfig {
  loaded ??= parseConfig(process.env);
  return loaded;
}
