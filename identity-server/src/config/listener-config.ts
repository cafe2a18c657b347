import { z } from "zod";
import { duration } from "./env-values.ts";
import { defaultListenerLimits, type ListenerLimits } from "../http/listener-limits.ts";

// Node's timers take at most 2^31-1 ms.
const timeout = duration((ms) => ms > 0 && ms <= 2_147_483_647, "a positive duration like 10s");

/**
 * The timeouts of every listener (identity public and admin, OAuth2 public and admin, mailbox);
 * `loadConfig` validates them with the rest.
 */
export const listenerEnvShape = {
  IDENTITY_HTTP_HEADERS_TIMEOUT: timeout.default(defaultListenerLimits.headersTimeoutMs),
  IDENTITY_HTTP_REQUEST_TIMEOUT: timeout.default(defaultListenerLimits.requestTimeoutMs),
  IDENTITY_HTTP_KEEP_ALIVE_TIMEOUT: timeout.default(defaultListenerLimits.keepAliveTimeoutMs),
};

type ListenerEnv = z.infer<z.ZodObject<typeof listenerEnvShape>>;

/** Node refuses to start a listener whose headers timeout is longer than its request timeout. */
export function checkListenerEnv(env: ListenerEnv, ctx: z.RefinementCtx): void {
  if (env.IDENTITY_HTTP_HEADERS_TIMEOUT > env.IDENTITY_HTTP_REQUEST_TIMEOUT) {
    ctx.addIssue({
      code: "custom",
      path: ["IDENTITY_HTTP_HEADERS_TIMEOUT"],
      message: "must not be longer than IDENTITY_HTTP_REQUEST_TIMEOUT",
    });
  }
}

export function listenerConfigFrom(env: ListenerEnv): ListenerLimits {
  return {
    headersTimeoutMs: env.IDENTITY_HTTP_HEADERS_TIMEOUT,
    requestTimeoutMs: env.IDENTITY_HTTP_REQUEST_TIMEOUT,
    keepAliveTimeoutMs: env.IDENTITY_HTTP_KEEP_ALIVE_TIMEOUT,
  };
}
