import path from "node:path";
import { z } from "zod";
import { parseDuration } from "./duration.ts";
import { jsonValue } from "./env-values.ts";

/** One of Kratos' `session.whoami.tokenizer.templates`, as far as this server implements them. */
interface TokenizerTemplate {
  /** How long the JWT is valid (Kratos' `ttl`, default 1m). */
  ttlMs: number;
  /** Where `sub` comes from; only the identity id (this server keeps no external ids). */
  subjectSource: "id";
}

export interface SessionTokenizerConfig {
  /** Template name → template; `GET /sessions/whoami?tokenize_as=<name>`. */
  templates: Record<string, TokenizerTemplate>;
  /** A private JWK or JWKS file to sign with; unset: a key generated once into the data dir. */
  keyFile: string | undefined;
}

// Kratos' template names (embedx/config.schema.json patternProperties).
const templateName = /^[a-zA-Z0-9\-_.]+$/;

const templateSchema = z
  .object({
    ttl: z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return 60_000;
        const ms = parseDuration(value);
        if (ms === undefined || ms <= 0) {
          ctx.addIssue({
            code: "custom",
            message: `ttl "${value}" is not a positive duration like 1m`,
          });
          return z.NEVER;
        }
        return ms;
      }),
    subject_source: z
      .literal("id", { message: 'subject_source must be "id" (there are no external ids here)' })
      .optional(),
  })
  .strict();

const templates = jsonValue("must be a JSON object of templates", (json, ctx) => {
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    ctx.addIssue({ code: "custom", message: "must be a JSON object of templates" });
    return z.NEVER;
  }
  const out: Record<string, TokenizerTemplate> = {};
  for (const [name, raw] of Object.entries(json)) {
    if (!templateName.test(name)) {
      ctx.addIssue({
        code: "custom",
        message: `template name "${name}" may only use a-z A-Z 0-9 - _ .`,
      });
      continue;
    }
    const parsed = templateSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const at = issue.path.length > 0 ? `.${issue.path.join(".")}` : "";
        ctx.addIssue({ code: "custom", message: `${name}${at}: ${issue.message}` });
      }
      continue;
    }
    out[name] = { ttlMs: parsed.data.ttl, subjectSource: "id" };
  }
  return out;
});

/** The environment variables of the session tokenizer; `loadConfig` validates them with the rest. */
export const tokenizerEnvShape = {
  IDENTITY_SESSION_TOKENIZER_TEMPLATES: templates.optional(),
  IDENTITY_SESSION_TOKENIZER_KEY_FILE: z.string().trim().min(1).optional(),
};

type TokenizerEnv = z.infer<z.ZodObject<typeof tokenizerEnvShape>>;

export function tokenizerConfigFrom(env: TokenizerEnv): SessionTokenizerConfig {
  return {
    templates: env.IDENTITY_SESSION_TOKENIZER_TEMPLATES ?? {},
    keyFile:
      env.IDENTITY_SESSION_TOKENIZER_KEY_FILE === undefined
        ? undefined
        : path.resolve(env.IDENTITY_SESSION_TOKENIZER_KEY_FILE),
  };
}
