import { z } from "zod";
import { parseTrustedProxies } from "../http/trusted-proxies.ts";

/**
 * IDENTITY_TRUSTED_PROXIES: whose X-Forwarded-For, -Proto and -Host the identity server's public
 * listener and the OAuth2 public listener believe. Loopback by default: the portal proxies the
 * browser's requests from the same machine.
 */
export const trustedProxiesEnvShape = {
  IDENTITY_TRUSTED_PROXIES: z
    .string()
    .default("loopback")
    .transform((value, ctx) => {
      try {
        return parseTrustedProxies(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
};
