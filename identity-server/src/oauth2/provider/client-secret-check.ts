import Provider, { errors, type KoaContextWithOIDC } from "oidc-provider";
import type { ClientAuthLimits } from "../clients/client-auth-limits.ts";
import type { ClientExtras } from "../clients/client-metadata.ts";
import { verifySecret } from "../crypto/secret-hash.ts";
import { rememberVerified, wasVerified } from "../crypto/verified-secrets.ts";
import { requestIp } from "./request-ip.ts";

// How a presented client secret is checked (it replaces oidc-provider's plain-text comparison;
// oidc-provider has already found the client and made sure it uses a secret method):
// 1. the method must be the registered one. oidc-provider lets a client_secret_basic client
//    authenticate with client_secret_post and the other way round; Hydra (fosite's
//    client_authentication.go) refuses that with 401 invalid_client before any secret is looked at;
// 2. a secret verified within the last minutes passes at once (crypto/verified-secrets.ts);
// 3. otherwise, while a budget of secret checks that applies is used up, the request is refused
//    without hashing (429, Retry-After): the client IP's, and the client id's unless this address
//    has authenticated as this client before (clients/client-auth-limits.ts);
// 4. otherwise the attempt is counted first and then hashed. Counting before hashing keeps a
//    burst of parallel guesses from all passing step 3 while the first hashes are still running;
//    a right secret counts too, once, and is then remembered (step 2).
// Every success (steps 2 and 4) marks the address as known for the client for another day.

type SecretClient = ClientExtras & { clientId: string; clientAuthMethod: string };

/** The request being served (oidc-provider keeps it in an AsyncLocalStorage), if any. */
function currentRequest(): KoaContextWithOIDC | undefined {
  return (Provider as unknown as { ctx?: KoaContextWithOIDC }).ctx;
}

function presentedMethod(ctx: KoaContextWithOIDC): string {
  // oidc-provider takes a non-empty client_secret parameter over the Authorization header.
  return ctx.oidc.params?.client_secret ? "client_secret_post" : "client_secret_basic";
}

function wrongMethod(registered: string, presented: string): Error {
  const error = new errors.InvalidClientAuth(
    `the client is registered with token_endpoint_auth_method ${registered}, not ${presented}`,
  );
  error.error_description = `client authentication failed: the client is registered for ${registered}, but ${presented} was used`;
  return error;
}

function tooManyFailures(ctx: KoaContextWithOIDC, waitMs: number): Error {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  ctx.set("Retry-After", String(seconds));
  const error = new errors.OIDCProviderError(429, "temporarily_unavailable");
  error.error_description = `too many failed client authentications; try again in ${seconds} seconds`;
  return error;
}

export function hashedSecretComparison(limits: ClientAuthLimits) {
  return async function compareHashedSecret(this: SecretClient, actual: string): Promise<boolean> {
    const ctx = currentRequest();
    const presented = ctx ? presentedMethod(ctx) : this.clientAuthMethod;
    if (presented !== this.clientAuthMethod) throw wrongMethod(this.clientAuthMethod, presented);

    const { clientId } = this;
    const ip = ctx ? requestIp(ctx.req) : undefined;
    const succeeded = () => {
      if (ip !== undefined) limits.recordSuccess(clientId, ip);
      return true;
    };
    const hashes = this.hydra_secret_hashes ?? [];
    const now = limits.now();
    if (hashes.some((hash) => wasVerified(clientId, hash, actual, now))) return succeeded();

    if (ctx && ip !== undefined) {
      const waitMs = limits.admit(clientId, ip);
      if (waitMs !== undefined) throw tooManyFailures(ctx, waitMs);
    }
    for (const hash of hashes) {
      if (await verifySecret(actual, hash)) {
        rememberVerified(clientId, hash, actual, limits.now());
        return succeeded();
      }
    }
    return false;
  };
}
