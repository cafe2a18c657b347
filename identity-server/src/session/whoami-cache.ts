import type { Kysely } from "kysely";
import { writeCounts, type WriteCounts } from "../store/database.ts";
import type { Database } from "../store/schema.ts";

// Tables whose rows never change a whoami answer or its AAL decision: flows and their codes and
// exchanges, the outbox, used TOTP steps, logout tokens and the OAuth2 service's tables. A write to
// any other table (sessions, session_devices, identities, credentials and their identifiers,
// addresses, trusted devices, a table added later, or a statement of unknown table) drops the
// whole cache. None of these tables may cascade or trigger into a related one (today their foreign
// keys cascade only among themselves: flows to codes and exchanges, messages to dispatches).
const unrelatedTables: ReadonlySet<string> = new Set([
  "selfservice_flows",
  "selfservice_errors",
  "one_time_codes",
  "session_token_exchanges",
  "session_logout_tokens",
  "courier_messages",
  "courier_message_dispatches",
  "totp_used_steps",
  "oauth2_payloads",
  "oauth2_clients",
  "oauth2_signing_keys",
  "oauth2_login_sessions",
  "oauth2_consent_sessions",
  "oauth2_logout_requests",
  "oauth2_trusted_issuers",
  "oauth2_seen_jtis",
]);

/** What the store looked like: equal stamps mean nothing a whoami answer depends on was written. */
export interface StoreStamp {
  writes: number;
  others: number;
}

export interface CachedWhoami {
  /** The serialised 200 body. */
  body: string;
  identityId: string;
  /** The session's expires_at (ms): the entry is never used at or after it. */
  expiresAtMs: number;
}

/**
 * Finished 200 answers of `/sessions/whoami` by token hash, exactly invalidated: an entry is used
 * only while no write to a table the answer depends on happened in this process, no other process
 * committed to the database (`PRAGMA data_version`) since the entry was read from the store, and the
 * session has not expired by the server's clock. Any such write empties the cache; it holds at most
 * `maxEntries` answers (oldest dropped first).
 */
export class WhoamiCache {
  readonly #counts: WriteCounts;
  readonly #relatedWrites: () => number;
  readonly #entries = new Map<string, CachedWhoami>();
  readonly #maxEntries: number;
  #stamp: StoreStamp = { writes: -1, others: -1 };

  constructor(db: Kysely<Database>, maxEntries = 4096) {
    this.#counts = writeCounts(db);
    this.#relatedWrites = this.#counts.watch(unrelatedTables);
    this.#maxEntries = maxEntries;
  }

  /** Take it before reading the session and identity; pass it to `set`. */
  stamp(): StoreStamp {
    return {
      writes: this.#relatedWrites(),
      others: this.#counts.otherConnectionsVersion(),
    };
  }

  get(tokenHash: string, now: Date): CachedWhoami | undefined {
    if (this.#entries.size === 0) return undefined;
    const current = this.stamp();
    if (!sameStamp(current, this.#stamp)) {
      this.#entries.clear();
      return undefined;
    }
    const entry = this.#entries.get(tokenHash);
    if (!entry) return undefined;
    if (now.getTime() >= entry.expiresAtMs) {
      this.#entries.delete(tokenHash);
      return undefined;
    }
    return entry;
  }

  /** Keeps an answer read after `readAt`, unless something it depends on was written since. */
  set(tokenHash: string, readAt: StoreStamp, entry: CachedWhoami): void {
    if (!sameStamp(this.stamp(), readAt)) return;
    if (!sameStamp(readAt, this.#stamp)) {
      this.#entries.clear();
      this.#stamp = readAt;
    }
    this.#entries.delete(tokenHash);
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(tokenHash, entry);
  }

  get size(): number {
    return this.#entries.size;
  }
}

function sameStamp(a: StoreStamp, b: StoreStamp): boolean {
  return a.writes === b.writes && a.others === b.others;
}
