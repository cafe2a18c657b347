import { createHash } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type JWTPayload } from "jose";
import { errors, type KoaContextWithOIDC } from "oidc-provider";
import type Provider from "oidc-provider";
import { answerAccessToken, clientMayNotRequest, scopesOf } from "./access-token-answer.ts";
import type { OAuth2Db } from "../store/oauth2-tables.ts";
import { findTrustedKeys } from "../trust/trusted-issuers.ts";

// RFC 7523 `urn:ietf:params:oauth:grant-type:jwt-bearer` as Hydra implements it (fosite's rfc7523
// handler): the client authenticates as usual, the assertion must be signed by a trusted issuer's
// key for that subject, name the token endpoint in `aud`, carry exp, iat and jti, and each jti is
// accepted once. The answer is an access token for the assertion's subject (no refresh token).

export const jwtBearerGrantType = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** Hydra's oauth2.grant.jwt.max_ttl. */
const maxAssertionTtlSeconds = 720 * 3600;

export interface JwtBearerDeps {
  db: OAuth2Db;
  now: () => Date;
  tokenUrl: string;
}

/** invalid_grant with a description saying why (oidc-provider's own is a fixed sentence). */
const invalidGrant = (description: string) =>
  Object.assign(new errors.InvalidGrant(description), { error_description: description });

function untrustedClaims(assertion: string): { kid: string; claims: JWTPayload } {
  try {
    const header = decodeProtectedHeader(assertion);
    return { kid: header.kid ?? "", claims: decodeJwt(assertion) };
  } catch {
    throw invalidGrant("Unable to parse JSON Web Token passed in 'assertion' request parameter.");
  }
}

/** Records the assertion's jti until it expires; false when it was seen before. */
async function spendJti(
  db: OAuth2Db,
  issuer: string,
  jti: string,
  expiresAt: Date,
): Promise<boolean> {
  const id = createHash("sha256").update(`${issuer}\n${jti}`).digest("base64url");
  const result = await db
    .insertInto("oauth2_seen_jtis")
    .values({ id, expires_at: expiresAt.toISOString() })
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function registerJwtBearerGrant(provider: Provider, deps: JwtBearerDeps): void {
  provider.registerGrantType(
    jwtBearerGrantType,
    async (ctx: KoaContextWithOIDC) => {
      const params = ctx.oidc.params as { assertion?: string; scope?: string };
      const client = ctx.oidc.client;
      if (!client) throw new errors.InvalidClient("client authentication failed");
      if (!params.assertion) {
        throw new errors.InvalidRequest("missing required parameter 'assertion'");
      }
      const { kid, claims } = untrustedClaims(params.assertion);
      if (!claims.iss || !claims.sub) {
        throw invalidGrant("The JSON Web Token must contain the 'iss' and 'sub' claims.");
      }
      const now = deps.now();
      const keys = await findTrustedKeys(
        deps.db,
        { issuer: claims.iss, subject: claims.sub, kid },
        now,
      );
      if (keys.length === 0) {
        throw invalidGrant(
          `No public JWK was registered for issuer '${claims.iss}' and subject '${claims.sub}' with kid '${kid}'.`,
        );
      }
      let verified: JWTPayload | undefined;
      let trusted = keys[0];
      for (const candidate of keys) {
        try {
          const key = await importJWK(
            candidate.jwk,
            candidate.jwk.alg ?? decodeProtectedHeader(params.assertion).alg,
          );
          const result = await jwtVerify(params.assertion, key, {
            audience: deps.tokenUrl,
            currentDate: now,
            requiredClaims: ["exp", "iat", "jti", "iss", "sub", "aud"],
          });
          verified = result.payload;
          trusted = candidate;
          break;
        } catch (error) {
          if (candidate === keys.at(-1)) {
            throw invalidGrant(`The JSON Web Token is not valid: ${(error as Error).message}`);
          }
        }
      }
      if (!verified || !trusted) throw invalidGrant("The JSON Web Token could not be verified.");
      const exp = verified.exp ?? 0;
      if (exp - now.getTime() / 1000 > maxAssertionTtlSeconds) {
        throw invalidGrant("The JSON Web Token expires too far in the future.");
      }
      if (!(await spendJti(deps.db, claims.iss, String(verified.jti), new Date(exp * 1000)))) {
        throw invalidGrant("The jti was already used.");
      }

      const requested = scopesOf(params.scope);
      const allowedByTrust = new Set(trusted.issuer.scope);
      const allowedByClient = new Set((client.scope ?? "").split(" "));
      for (const scope of requested) {
        if (!allowedByTrust.has(scope)) {
          throw new errors.InvalidScope(
            `The public key registered for issuer '${claims.iss}' is not allowed to request scope '${scope}'.`,
            scope,
          );
        }
        if (!allowedByClient.has(scope)) throw clientMayNotRequest(scope);
      }

      const grant = new provider.Grant({ accountId: claims.sub, clientId: client.clientId });
      if (requested.length > 0) grant.addOIDCScope(requested.join(" "));
      const grantId = await grant.save();
      const scope = requested.join(" ");
      const token = new provider.AccessToken({
        accountId: claims.sub,
        client,
        grantId,
        gty: jwtBearerGrantType,
        ...(scope ? { scope } : {}),
      });
      await answerAccessToken(ctx, "AccessToken", token, scope);
    },
    ["assertion", "scope", "audience"],
  );
}
