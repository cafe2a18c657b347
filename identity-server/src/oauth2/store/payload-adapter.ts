import type { Adapter, AdapterFactory, AdapterPayload } from "oidc-provider";
import { providerMetadata } from "../clients/client-metadata.ts";
import { findClient, secretHashesOf } from "../clients/client-store.ts";
import { epochSeconds } from "../time.ts";
import type { OAuth2Db } from "./oauth2-tables.ts";

// oidc-provider's storage contract (example/my_adapter.js in its repository) over one table.
// Interactions are not deleted when oidc-provider destroys them on resume: they are marked
// consumed and hidden from the provider, so the admin API can still tell "already used" (410)
// from "unknown" (404) until the row expires.

class PayloadAdapter implements Adapter {
  readonly #db: OAuth2Db;
  readonly #model: string;
  readonly #now: () => Date;

  constructor(db: OAuth2Db, model: string, now: () => Date) {
    this.#db = db;
    this.#model = model;
    this.#now = now;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const row = {
      payload: JSON.stringify(payload),
      grant_id: payload.grantId ?? null,
      uid: payload.uid ?? null,
      user_code: payload.userCode ?? null,
      account_id: payload.accountId ?? null,
      client_id: payload.clientId ?? null,
      expires_at: expiresIn
        ? new Date(this.#now().getTime() + expiresIn * 1000).toISOString()
        : null,
    };
    await this.#db
      .insertInto("oauth2_payloads")
      .values({ model: this.#model, id, consumed_at: null, ...row })
      .onConflict((oc) => oc.columns(["model", "id"]).doUpdateSet(row))
      .execute();
  }

  async #findWhere(column: "id" | "uid" | "user_code", value: string) {
    const row = await this.#db
      .selectFrom("oauth2_payloads")
      .select(["payload", "consumed_at"])
      .where("model", "=", this.#model)
      .where(column, "=", value)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.consumed_at && this.#model === "Interaction") return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumed_at
      ? { ...payload, consumed: epochSeconds(new Date(row.consumed_at)) }
      : payload;
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.#findWhere("id", id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.#findWhere("uid", uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.#findWhere("user_code", userCode);
  }

  async consume(id: string): Promise<void> {
    await this.#db
      .updateTable("oauth2_payloads")
      .set({ consumed_at: this.#now().toISOString() })
      .where("model", "=", this.#model)
      .where("id", "=", id)
      .execute();
  }

  async destroy(id: string): Promise<void> {
    if (this.#model === "Interaction") {
      await this.consume(id);
      return;
    }
    await this.#db
      .deleteFrom("oauth2_payloads")
      .where("model", "=", this.#model)
      .where("id", "=", id)
      .execute();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.#db
      .deleteFrom("oauth2_payloads")
      .where("model", "=", this.#model)
      .where("grant_id", "=", grantId)
      .execute();
  }
}

/** Clients live in their own table in Hydra's shape; the provider reads them through this. */
class ClientAdapter implements Adapter {
  readonly #db: OAuth2Db;

  constructor(db: OAuth2Db) {
    this.#db = db;
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const stored = await findClient(this.#db, id);
    return stored ? providerMetadata(stored.client, secretHashesOf(stored)) : undefined;
  }

  upsert(): Promise<void> {
    return Promise.reject(new Error("clients are managed through the admin API"));
  }
  findByUid(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  findByUserCode(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  consume(): Promise<void> {
    return Promise.resolve();
  }
  destroy(): Promise<void> {
    return Promise.reject(new Error("clients are managed through the admin API"));
  }
  revokeByGrantId(): Promise<void> {
    return Promise.resolve();
  }
}

export function payloadAdapterFactory(db: OAuth2Db, now: () => Date): AdapterFactory {
  const adapters = new Map<string, Adapter>();
  return (model: string) => {
    let adapter = adapters.get(model);
    if (!adapter) {
      adapter = model === "Client" ? new ClientAdapter(db) : new PayloadAdapter(db, model, now);
      adapters.set(model, adapter);
    }
    return adapter;
  };
}
