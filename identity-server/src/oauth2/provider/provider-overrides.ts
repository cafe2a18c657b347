import type Provider from "oidc-provider";
import type { ClientExtras } from "../clients/client-metadata.ts";
import { verifySecret } from "../crypto/secret-hash.ts";

// Three overrides of oidc-provider internals (pinned to 9.13.3; each is covered by a test so an
// upgrade that changes them fails loudly):
// - client secrets are compared against the stored hashes (oidc-provider compares plain text);
// - every ID token carries `sid` (oidc-provider adds it only for back-channel logout clients);
// - `sid` is the browser session's uid for every client, as Hydra's sid is its login session id.

export function applyProviderOverrides(provider: Provider): void {
  provider.Client.prototype.compareClientSecret = async function compareHashedSecret(
    this: ClientExtras,
    actual: string,
  ): Promise<boolean> {
    for (const hash of this.hydra_secret_hashes ?? []) {
      if (await verifySecret(actual, hash)) return true;
    }
    return false;
  };

  provider.Client.prototype.includeSid = () => true;

  provider.Session.prototype.ensureClientContainer = function sidIsSessionUid(clientId: string) {
    if (!this.sidFor(clientId)) this.sidFor(clientId, this.uid);
  };
}
