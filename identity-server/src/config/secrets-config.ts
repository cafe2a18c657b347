import { z } from "zod";
import { commaList } from "./env-values.ts";

/** Kratos asks for 16 characters; the embedded server has always asked for 32. */
const secretMinLength = 32;

const tooShort = `must be at least ${secretMinLength} characters long`;

/**
 * The server secrets (Kratos' `secrets.default`): the first signs and seals, every one still
 * verifies and opens, so a secret is rotated by putting a new one first and dropping the old one
 * once what it signed has expired. `IDENTITY_SECRET` is the deprecated one-item form, kept as it
 * was (not split at commas, so an old secret holding a comma still starts).
 */
export const secretsEnvShape = {
  IDENTITY_SECRETS: z
    .string()
    .transform(commaList)
    .pipe(
      z
        .array(z.string().min(secretMinLength, `each secret ${tooShort}`))
        .min(1, "must name at least one secret")
        .refine((list) => new Set(list).size === list.length, "must not name a secret twice"),
    )
    .optional(),
  IDENTITY_SECRET: z.string().min(secretMinLength, tooShort).optional(),
};

type SecretsEnv = z.infer<z.ZodObject<typeof secretsEnvShape>>;

/** Both forms at once would leave which one wins to chance: refused, naming the old one. */
export function checkSecretsEnv(env: SecretsEnv, ctx: z.RefinementCtx): void {
  if (env.IDENTITY_SECRETS !== undefined && env.IDENTITY_SECRET !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["IDENTITY_SECRET"],
      message: "is the deprecated form of IDENTITY_SECRETS; set only IDENTITY_SECRETS",
    });
  }
}

/** The configured secrets, newest first; undefined: the one generated into the data dir. */
export function secretsFrom(env: SecretsEnv): readonly string[] | undefined {
  return env.IDENTITY_SECRETS ?? (env.IDENTITY_SECRET ? [env.IDENTITY_SECRET] : undefined);
}
