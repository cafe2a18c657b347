import { errors, type KoaContextWithOIDC } from "oidc-provider";

// What the two grants this server adds to oidc-provider (client_credentials with Hydra's scope
// check, and RFC 7523's jwt-bearer) share: reading the requested scopes, refusing one the client
// is not registered with, and answering with a bare access token.

/** The scopes of a space-separated `scope` parameter or client field. */
export function scopesOf(value: unknown): string[] {
  return typeof value === "string" ? value.split(" ").filter((scope) => scope !== "") : [];
}

/** Hydra's answer to a scope the client is not registered with. */
export function clientMayNotRequest(scope: string): InstanceType<typeof errors.InvalidScope> {
  return new errors.InvalidScope(
    `The OAuth 2.0 Client is not allowed to request scope '${scope}'.`,
    scope,
  );
}

/** An access token a grant built and has not saved yet. */
interface UnsavedAccessToken {
  expiration: number;
  save(): Promise<string>;
}

/** Saves the token and answers RFC 6749's token response without a refresh token. */
export async function answerAccessToken(
  ctx: KoaContextWithOIDC,
  entity: "ClientCredentials" | "AccessToken",
  token: UnsavedAccessToken,
  scope: string,
): Promise<void> {
  ctx.oidc.entity(entity, token);
  const accessToken = await token.save();
  ctx.body = {
    access_token: accessToken,
    expires_in: token.expiration,
    token_type: "Bearer",
    ...(scope ? { scope } : {}),
  };
}
