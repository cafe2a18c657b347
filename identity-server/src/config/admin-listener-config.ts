import { isIP } from "node:net";
import { z } from "zod";

/** An interface to bind: an IP address or a host name, trimmed. */
const host = z
  .string()
  .trim()
  .refine(
    (value) => isIP(value.replace(/^\[(.*)\]$/, "$1")) !== 0 || /^[A-Za-z0-9.-]+$/.test(value),
    "must be an IP address or a host name",
  )
  .transform((value) => value.replace(/^\[(.*)\]$/, "$1"));

/**
 * Where the two admin listeners (identity, Kratos' 4434; OAuth2, Hydra's 4445) bind. Loopback by
 * default: the admin APIs create identities, sessions and tokens, so anything else needs
 * IDENTITY_ADMIN_TOKEN (checkAdminListenerEnv).
 */
export const adminListenerEnvShape = {
  IDENTITY_ADMIN_HOST: host.default("127.0.0.1"),
  IDENTITY_OAUTH2_ADMIN_HOST: host.default("127.0.0.1"),
};

type AdminListenerEnv = z.infer<z.ZodObject<typeof adminListenerEnvShape>> & {
  IDENTITY_ADMIN_TOKEN?: string | undefined;
};

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`: reachable from this machine only. */
function isLoopback(host: string): boolean {
  const address = host.toLowerCase().replace(/^::ffff:/, "");
  if (address === "localhost" || address === "::1") return true;
  return isIP(address) === 4 && address.startsWith("127.");
}

/** An admin listener on anything but loopback without the admin token would open the admin API. */
export function checkAdminListenerEnv(env: AdminListenerEnv, ctx: z.RefinementCtx): void {
  if (env.IDENTITY_ADMIN_TOKEN !== undefined) return;
  for (const variable of ["IDENTITY_ADMIN_HOST", "IDENTITY_OAUTH2_ADMIN_HOST"] as const) {
    if (isLoopback(env[variable])) continue;
    ctx.addIssue({
      code: "custom",
      path: [variable],
      message: `"${env[variable]}" is not a loopback address: set IDENTITY_ADMIN_TOKEN too, or the admin API would be open to the network`,
    });
  }
}
