import type Provider from "oidc-provider";
import type { ClientExtras } from "../clients/client-metadata.ts";
import { verifySecret } from "../crypto/secret-hash.ts";
import { rememberVerified, wasVerified } from "../crypto/verified-secrets.ts";

// Three overrides of oidc-provider internals (pinned to 9.13.3; each is covered by a test so an
// upgrade that changes them fails loudly):
// - client secrets are compared against the stored hashes (oidc-provider compares plain text); a
//   successful comparison is remembered for a few minutes (crypto/verified-secrets.ts);
// - every ID token carries `sid` (oidc-provider adds it only for back-channel logout clients);
// - `sid` is the browser session's uid for every client, as Hydra's sid is its login session id.

export function applyProviderOverrides(provider: Provider): void {
  provider.Client.prototype.compareClientSecret = async function compareHashedSecret(
    this: ClientExtras & { clientId: string },
    actual: string,
  ): Promise<boolean> {
    const hashes = this.hydra_secret_hashes ?? [];
    const clientId = this.clientId;
    if (hashes.some((hash) => wasVerified(clientId, hash, actual, performance.now()))) return true;
    for (const hash of hashes) {
      if (await verifySecret(actual, hash)) {
        rememberVerified(clientId, hash, actual, performance.now());
        return true;
      }
    }
    return false;
  };

  provider.Client.prototype.includeSid = () => true;

  provider.Session.prototype.ensureClientContainer = function sidIsSessionUid(clientId: string) {
    if (!this.sidFor(clientId)) this.sidFor(clientId, this.uid);
  };
}
