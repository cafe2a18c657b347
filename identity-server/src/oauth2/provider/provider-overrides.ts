import type Provider from "oidc-provider";
import type { ClientAuthLimits } from "../clients/client-auth-limits.ts";
import { hashedSecretComparison } from "./client-secret-check.ts";

// Three overrides of oidc-provider internals (pinned to 9.13.3; each is covered by a test so an
// upgrade that changes them fails loudly):
// - client secrets are compared against the stored hashes (oidc-provider compares plain text),
//   only with the registered method and within the limits of failed checks
//   (client-secret-check.ts);
// - every ID token carries `sid` (oidc-provider adds it only for back-channel logout clients);
// - `sid` is the browser session's uid for every client, as Hydra's sid is its login session id.

export function applyProviderOverrides(provider: Provider, limits: ClientAuthLimits): void {
  provider.Client.prototype.compareClientSecret = hashedSecretComparison(limits);

  provider.Client.prototype.includeSid = () => true;

  provider.Session.prototype.ensureClientContainer = function sidIsSessionUid(clientId: string) {
    if (!this.sidFor(clientId)) this.sidFor(clientId, this.uid);
  };
}
