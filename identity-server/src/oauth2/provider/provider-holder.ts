import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import type { PrivateJwk } from "../crypto/signing-keys.ts";
import { buildProvider, type ProviderDeps } from "./build-provider.ts";

/**
 * The current provider. oidc-provider fixes its scope list at construction, while Hydra accepts
 * any scope a client is registered with; when a client brings a new scope a fresh provider
 * replaces the old one (all state is in the database, so nothing is lost).
 */
export class ProviderHolder {
  #deps: ProviderDeps;
  readonly #scopes: Set<string>;
  #provider: Provider;
  #handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;

  constructor(deps: ProviderDeps, scopes: Iterable<string>) {
    this.#deps = deps;
    this.#scopes = new Set(scopes);
    this.#provider = buildProvider(deps, this.#scopes);
    this.#handle = this.#provider.callback();
  }

  get current(): Provider {
    return this.#provider;
  }

  handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // oidc-provider builds the URLs it answers (discovery, redirects) from the request's host; as
    // Hydra builds them from its configuration, the issuer's host is the only one it sees, so a
    // Host or X-Forwarded-Host header cannot put another site into a discovery document a cache
    // keeps.
    req.headers.host = new URL(this.#deps.issuer).host;
    delete req.headers["x-forwarded-host"];
    return this.#handle(req, res);
  }

  /** Rebuilds the provider with new signing keys (JWK admin API); newest first signs. */
  replaceKeys(keys: PrivateJwk[]): void {
    this.#deps = { ...this.#deps, keys };
    this.#provider = buildProvider(this.#deps, this.#scopes);
    this.#handle = this.#provider.callback();
  }

  /** Rebuilds the provider when any of the scopes is new to it. */
  learnScopes(scopes: Iterable<string>): void {
    let changed = false;
    for (const scope of scopes) {
      if (scope !== "" && !this.#scopes.has(scope)) {
        this.#scopes.add(scope);
        changed = true;
      }
    }
    if (!changed) return;
    this.#provider = buildProvider(this.#deps, this.#scopes);
    this.#handle = this.#provider.callback();
  }
}
