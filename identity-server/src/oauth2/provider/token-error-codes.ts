import type { Context, Next } from "koa";

// oidc-provider answers a grant type the client is not registered for with `invalid_request`;
// RFC 6749 §5.2 and Hydra (fosite) use `unauthorized_client`. The token endpoint's answer is
// corrected on the way out.

const grantTypeNotAllowed = "requested grant type is not allowed for this client";

export function tokenErrorCodes(tokenPath: string) {
  return async function correctTokenErrors(ctx: Context, next: Next): Promise<void> {
    await next();
    if (ctx.method !== "POST" || ctx.path !== tokenPath || ctx.status !== 400) return;
    const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
    if (body?.error === "invalid_request" && body.error_description === grantTypeNotAllowed) {
      ctx.body = { ...body, error: "unauthorized_client" };
    }
  };
}
