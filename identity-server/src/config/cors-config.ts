import { z } from "zod";
import { parseOriginPattern, type OriginPattern } from "../http/cors-origins.ts";
import type { CorsConfig } from "../http/cors.ts";
import { commaList, flag } from "./env-values.ts";

// `serve.public.cors` of Kratos (IDENTITY_CORS_*, the identity public listener) and of Hydra
// (IDENTITY_OAUTH2_CORS_*, the OAuth2 public listener), with each one's defaults.

const origins = z.string().transform((value, ctx): OriginPattern[] => {
  const patterns: OriginPattern[] = [];
  for (const entry of commaList(value)) {
    try {
      patterns.push(parseOriginPattern(entry));
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
    }
  }
  return patterns;
});

// The methods Kratos' configuration schema accepts.
const knownMethods = [
  "POST",
  "GET",
  "PUT",
  "PATCH",
  "DELETE",
  "CONNECT",
  "HEAD",
  "OPTIONS",
  "TRACE",
];

const methods = z
  .string()
  .transform((value) => commaList(value).map((method) => method.toUpperCase()))
  .pipe(
    z.array(
      z.string().refine((method) => knownMethods.includes(method), {
        message: `must be methods among ${knownMethods.join(", ")}`,
      }),
    ),
  );

// RFC 9110 token characters: what a header name may hold.
const headerNames = z
  .string()
  .transform(commaList)
  .pipe(
    z.array(
      z
        .string()
        .regex(/^(\*|[!#$%&'*+.^_`|~0-9A-Za-z-]+)$/, "must be header names, comma-separated"),
    ),
  );

const maxAge = z.coerce
  .number({ message: "must be a whole number of seconds" })
  .int("must be a whole number of seconds")
  .min(0, "must be 0 or more seconds")
  .max(86_400 * 365, "must be at most a year");

interface CorsDefaults {
  methods: string;
  headers: string;
  exposed: string;
}

// Kratos' driver/config CORSPublic defaults.
const kratosDefaults: CorsDefaults = {
  methods: "GET,POST,PUT,PATCH,DELETE",
  headers: "Authorization,Content-Type,Cookie",
  exposed: "Content-Type,Set-Cookie",
};

// Hydra's driver/config defaultCORSOptions.
const hydraDefaults: CorsDefaults = {
  methods: "POST,GET,PUT,PATCH,DELETE,CONNECT,HEAD,OPTIONS,TRACE",
  headers: "Accept,Content-Type,Content-Length,Accept-Language,Content-Language,Authorization",
  exposed:
    "Cache-Control,Expires,Last-Modified,Pragma,Content-Length,Content-Language,Content-Type",
};

export const corsEnvShape = {
  IDENTITY_CORS_ENABLED: flag.default(false),
  IDENTITY_CORS_ALLOWED_ORIGINS: origins.default([]),
  IDENTITY_CORS_ALLOWED_METHODS: methods.default(commaList(kratosDefaults.methods)),
  IDENTITY_CORS_ALLOWED_HEADERS: headerNames.default(commaList(kratosDefaults.headers)),
  IDENTITY_CORS_EXPOSED_HEADERS: headerNames.default(commaList(kratosDefaults.exposed)),
  IDENTITY_CORS_ALLOW_CREDENTIALS: flag.default(true),
  IDENTITY_CORS_MAX_AGE: maxAge.default(0),
  IDENTITY_CORS_DEBUG: flag.default(false),
  IDENTITY_OAUTH2_CORS_ENABLED: flag.default(false),
  IDENTITY_OAUTH2_CORS_ALLOWED_ORIGINS: origins.default([]),
  IDENTITY_OAUTH2_CORS_ALLOWED_METHODS: methods.default(commaList(hydraDefaults.methods)),
  IDENTITY_OAUTH2_CORS_ALLOWED_HEADERS: headerNames.default(commaList(hydraDefaults.headers)),
  IDENTITY_OAUTH2_CORS_EXPOSED_HEADERS: headerNames.default(commaList(hydraDefaults.exposed)),
  IDENTITY_OAUTH2_CORS_ALLOW_CREDENTIALS: flag.default(true),
  IDENTITY_OAUTH2_CORS_MAX_AGE: maxAge.default(0),
  IDENTITY_OAUTH2_CORS_DEBUG: flag.default(false),
};

export type CorsEnv = z.infer<z.ZodObject<typeof corsEnvShape>>;

/**
 * Kratos and Hydra allow every origin when CORS is on without a list (rs/cors' default). With
 * credentials that lets any web site read a signed-in person's session, so here the list must
 * be given; `*` still says "every origin" on purpose.
 */
export function checkCorsEnv(env: CorsEnv, ctx: z.RefinementCtx): void {
  for (const prefix of ["IDENTITY_CORS_", "IDENTITY_OAUTH2_CORS_"] as const) {
    if (env[`${prefix}ENABLED`] && env[`${prefix}ALLOWED_ORIGINS`].length === 0) {
      ctx.addIssue({
        code: "custom",
        path: [`${prefix}ALLOWED_ORIGINS`],
        message: `must list the allowed origins when ${prefix}ENABLED=true (* allows every origin)`,
      });
    }
  }
}

export function identityCorsConfigFrom(env: CorsEnv): CorsConfig {
  return {
    enabled: env.IDENTITY_CORS_ENABLED,
    allowedOrigins: env.IDENTITY_CORS_ALLOWED_ORIGINS,
    allowedMethods: env.IDENTITY_CORS_ALLOWED_METHODS,
    allowedHeaders: env.IDENTITY_CORS_ALLOWED_HEADERS,
    exposedHeaders: env.IDENTITY_CORS_EXPOSED_HEADERS,
    allowCredentials: env.IDENTITY_CORS_ALLOW_CREDENTIALS,
    maxAgeSeconds: env.IDENTITY_CORS_MAX_AGE,
    debug: env.IDENTITY_CORS_DEBUG,
  };
}

export function oauth2CorsConfigFrom(env: CorsEnv): CorsConfig {
  return {
    enabled: env.IDENTITY_OAUTH2_CORS_ENABLED,
    allowedOrigins: env.IDENTITY_OAUTH2_CORS_ALLOWED_ORIGINS,
    allowedMethods: env.IDENTITY_OAUTH2_CORS_ALLOWED_METHODS,
    allowedHeaders: env.IDENTITY_OAUTH2_CORS_ALLOWED_HEADERS,
    exposedHeaders: env.IDENTITY_OAUTH2_CORS_EXPOSED_HEADERS,
    allowCredentials: env.IDENTITY_OAUTH2_CORS_ALLOW_CREDENTIALS,
    maxAgeSeconds: env.IDENTITY_OAUTH2_CORS_MAX_AGE,
    debug: env.IDENTITY_OAUTH2_CORS_DEBUG,
  };
}
