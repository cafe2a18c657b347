import { createPublicKey, type JsonWebKey } from "node:crypto";
import type { OAuth2Db } from "../store/oauth2-tables.ts";
import {
  deleteSigningKey,
  generateSigningKey,
  insertSigningKey,
  type GeneratedAlgorithm,
  type PrivateJwk,
} from "./signing-keys.ts";

/** Hydra's key set for ID tokens: the only set the embedded service keeps. */
export const idTokenKeySet = "hydra.openid.id-token";

export interface PublicJwk extends JsonWebKey {
  kid: string;
  alg: string;
  use: string;
}

/** The public half of a signing key: what the JWK admin API and the public JWKS show. */
export function publicJwkOf(jwk: PrivateJwk): PublicJwk {
  const publicPart = createPublicKey({ key: jwk, format: "jwk" }).export({ format: "jwk" });
  return { ...publicPart, kid: jwk.kid, alg: jwk.alg, use: jwk.use };
}

export interface SigningKeyRingDeps {
  db: OAuth2Db;
  /** The first server secret: new keys are sealed with it. */
  secret: string;
  now: () => Date;
  /** Called with the new key list (newest first) after every change: the provider is rebuilt. */
  changed(keys: PrivateJwk[]): void;
}

/**
 * The OAuth2 signing keys in memory, newest first, and their changes through Hydra's JSON Web Key
 * admin API. Changes are stored first, then handed to the provider; they are made one at a time.
 */
export class SigningKeyRing {
  readonly #deps: SigningKeyRingDeps;
  #keys: PrivateJwk[];
  #queue: Promise<unknown> = Promise.resolve();

  constructor(deps: SigningKeyRingDeps, keys: PrivateJwk[]) {
    this.#deps = deps;
    this.#keys = keys;
  }

  get keys(): readonly PrivateJwk[] {
    return this.#keys;
  }

  find(kid: string): PrivateJwk | undefined {
    return this.#keys.find((key) => key.kid === kid);
  }

  #serial<T>(change: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(change, change);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Generates a key (generation runs outside the queue: an RSA key takes a while) and stores it. */
  async add(alg: GeneratedAlgorithm, kid: string | undefined): Promise<PrivateJwk | "exists"> {
    const jwk = await generateSigningKey(alg, kid);
    return this.#serial(async () => {
      if (this.find(jwk.kid)) return "exists";
      await insertSigningKey(this.#deps.db, this.#deps.secret, jwk, this.#deps.now());
      this.#keys = [jwk, ...this.#keys];
      this.#deps.changed(this.#keys);
      return jwk;
    });
  }

  /**
   * Stores a key brought by the operator (Hydra's setJsonWebKey): it replaces a key with the same
   * id and becomes the newest, as Hydra deletes and inserts it. "last-rs256" when it would replace
   * the last RS256 key by another algorithm.
   */
  put(jwk: PrivateJwk): Promise<PrivateJwk | "last-rs256"> {
    return this.#serial(async () => {
      const others = this.#keys.filter((k) => k.kid !== jwk.kid);
      if (jwk.alg !== "RS256" && !others.some((k) => k.alg === "RS256")) return "last-rs256";
      await this.#deps.db.transaction().execute(async (trx) => {
        await deleteSigningKey(trx, jwk.kid);
        await insertSigningKey(trx, this.#deps.secret, jwk, this.#deps.now());
      });
      this.#keys = [jwk, ...others];
      this.#deps.changed(this.#keys);
      return jwk;
    });
  }

  /** Removes a key; "missing" when there is none, "last-rs256" when it is the last RS256 key. */
  remove(kid: string): Promise<"removed" | "missing" | "last-rs256"> {
    return this.#serial(async () => {
      const key = this.find(kid);
      if (!key) return "missing";
      const rs256 = this.#keys.filter((k) => k.alg === "RS256");
      if (key.alg === "RS256" && rs256.length === 1) return "last-rs256";
      await deleteSigningKey(this.#deps.db, kid);
      this.#keys = this.#keys.filter((k) => k.kid !== kid);
      this.#deps.changed(this.#keys);
      return "removed";
    });
  }
}
