import type { ServerContext } from "../../context.ts";
import { deploymentContextWords } from "./context-words.ts";
import type { PasswordPolicyOptions } from "./policy.ts";

/**
 * The policy's settings for this server: the minimum length, and as product words the configured
 * IDENTITY_PASSWORD_CONTEXT_WORDS plus the names people see of this deployment (the UI's and the
 * public API's host names, the authenticator apps' issuer).
 */
export function passwordPolicyOptions(ctx: ServerContext): PasswordPolicyOptions {
  const { config } = ctx;
  return {
    minLength: config.passwordMinLength,
    productWords: [
      ...config.passwordContextWords,
      ...deploymentContextWords(
        [config.uiBaseUrl, config.publicBaseUrl],
        config.secondFactor.totpIssuer,
      ),
    ],
  };
}
