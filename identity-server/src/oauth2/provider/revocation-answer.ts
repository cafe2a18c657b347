import type { Context, Next } from "koa";

// Hydra (fosite's WriteRevocationResponse) marks every revocation answer, success or error, with
// `Cache-Control: no-store` and `Pragma: no-cache`; oidc-provider sets neither on a 200.
//
// A token of another client is not revoked and the answer is still an empty 200: fosite's
// revocation handler returns unauthorized_client, but WriteRevocationResponse writes a 200 for
// every error other than invalid_request and invalid_client (Hydra's revocator_test.go expects
// that too). oidc-provider's `allowedPolicy` (build-provider.ts) gives the same answer.

export function revocationAnswer(revocationPath: string) {
  return async function markRevocationAnswer(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== revocationPath) {
      await next();
      return;
    }
    try {
      await next();
    } finally {
      ctx.set("Cache-Control", "no-store");
      ctx.set("Pragma", "no-cache");
    }
  };
}
