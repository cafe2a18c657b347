import { fileURLToPath } from "node:url";
import path from "node:path";
import { z } from "zod";
import { parseDuration } from "./duration.ts";

export interface IdentityServerConfig {
  publicHost: string;
  publicPort: number;
  /** The admin listener always binds 127.0.0.1; only its port is configurable. */
  adminPort: number;
  /** Without a trailing slash, e.g. http://localhost:3000/api/kratos */
  publicBaseUrl: string;
  /** Without a trailing slash, e.g. http://localhost:3000 */
  uiBaseUrl: string;
  defaultReturnUrl: string;
  allowedReturnUrls: string[];
  dataDir: string;
  schemaPath: string;
  passwordMinLength: number;
  sessionLifespanMs: number;
  flowLifespanMs: number;
  secret: string | undefined;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

const defaultSchemaPath = fileURLToPath(new URL("../../identity.schema.json", import.meta.url));

const port = z.coerce.number().int().min(0).max(65535);

const httpUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL");

const duration = z
  .string()
  .trim()
  .transform((value, ctx) => {
    const ms = parseDuration(value);
    if (ms === undefined || ms <= 0) {
      ctx.addIssue({
        code: "custom",
        message: `"${value}" is not a positive duration like 1h or 30m`,
      });
      return z.NEVER;
    }
    return ms;
  });

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
    .transform((value) =>
      value
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ""),
    )
    .pipe(z.array(httpUrl)),
  IDENTITY_DATA_DIR: z.string().trim().min(1).default("./data"),
  IDENTITY_SCHEMA_PATH: z.string().trim().min(1).default(defaultSchemaPath),
  IDENTITY_PASSWORD_MIN_LENGTH: z.coerce.number().int().min(6).max(1024).default(12),
  IDENTITY_SESSION_LIFESPAN: duration.default(24 * 3_600_000),
  IDENTITY_FLOW_LIFESPAN: duration.default(3_600_000),
  IDENTITY_SECRET: z.string().min(32, "must be at least 32 characters long").optional(),
  IDENTITY_LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info"),
});

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
  const parsed = envSchema.safeParse(present);
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
    adminPort: e.IDENTITY_ADMIN_PORT,
    publicBaseUrl: withoutTrailingSlash(e.IDENTITY_PUBLIC_BASE_URL),
    uiBaseUrl: withoutTrailingSlash(e.IDENTITY_UI_BASE_URL),
    defaultReturnUrl: e.IDENTITY_DEFAULT_RETURN_URL,
    allowedReturnUrls: e.IDENTITY_ALLOWED_RETURN_URLS,
    dataDir: path.resolve(e.IDENTITY_DATA_DIR),
    schemaPath: path.resolve(e.IDENTITY_SCHEMA_PATH),
    passwordMinLength: e.IDENTITY_PASSWORD_MIN_LENGTH,
    sessionLifespanMs: e.IDENTITY_SESSION_LIFESPAN,
    flowLifespanMs: e.IDENTITY_FLOW_LIFESPAN,
    secret: e.IDENTITY_SECRET,
    logLevel: e.IDENTITY_LOG_LEVEL,
  };
}
