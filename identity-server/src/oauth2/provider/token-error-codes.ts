import type { Context, Next } from "koa";

// Token endpoint errors corrected on the way out:
// - oidc-provider answers a grant type the client is not registered for with `invalid_request`;
//   RFC 6749 §5.2 and Hydra (fosite) use `unauthorized_client`;
// - oidc-provider's `invalid_scope` carries the offending scopes in an extra `scope` field;
//   fosite's errors are only `{error, error_description}` (found in issue 15).

const grantTypeNotAllowed = "requested grant type is not allowed for this client";

export function tokenErrorCodes(tokenPath: string) {
  return async function correctTokenErrors(ctx: Context, next: Next): Promise<void> {
    await next();
    if (ctx.method !== "POST" || ctx.path !== tokenPath || ctx.status !== 400) return;
    const body = ctx.body as
      { error?: unknown; error_description?: unknown; scope?: unknown } | undefined;
    if (body?.error === "invalid_request" && body.error_description === grantTypeNotAllowed) {
      ctx.body = { ...body, error: "unauthorized_client" };
    }
    if (body?.error === "invalid_scope" && "scope" in body) {
      const fositeShape = { ...body };
      delete fositeShape.scope;
      ctx.body = fositeShape;
    }
  };
}
