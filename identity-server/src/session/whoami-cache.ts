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
 * What the cache may hold: 8 MiB, about 4,100 answers of the bench's size (1.25 KB bodies), as
 * many as the 4,096 entries it held before it was bounded in bytes.
 */
export const defaultMaxBytes = 8 * 1024 * 1024;

// V8's cost of an entry beside its body: the Map slot, the 64-character key, the entry objects and
// the identity id (measured with --expose-gc over 20,000 entries: about 735 bytes).
const entryOverheadBytes = 768;

/**
 * The heap an entry holds, estimated: V8 keeps a string of Latin-1 characters at one byte per
 * character and any other at two.
 */
export function entryBytes(entry: CachedWhoami): number {
  // eslint-disable-next-line no-control-regex
  const wide = /[^\u0000-\u00ff]/.test(entry.body);
  return entry.body.length * (wide ? 2 : 1) + entryOverheadBytes;
}

/**
 * Finished 200 answers of `/sessions/whoami` by token hash, exactly invalidated: an entry is used
 * only while no write to a table the answer depends on happened in this process, no other process
 * committed to the database (`PRAGMA data_version`) since the entry was read from the store, and the
 * session has not expired by the server's clock. Any such write empties the cache. Its memory is
 * bounded in bytes, not entries (oldest dropped first): an identity's traits and metadata may be
 * tens of kilobytes, and 4,096 such answers would be most of the server's 200 MB.
 */
export class WhoamiCache {
  readonly #counts: WriteCounts;
  readonly #relatedWrites: () => number;
  readonly #entries = new Map<string, { entry: CachedWhoami; bytes: number }>();
  readonly #maxBytes: number;
  #bytes = 0;
  #stamp: StoreStamp = { writes: -1, others: -1 };

  constructor(db: Kysely<Database>, maxBytes = defaultMaxBytes) {
    this.#counts = writeCounts(db);
    this.#relatedWrites = this.#counts.watch(unrelatedTables);
    this.#maxBytes = maxBytes;
  }

  /** Take it before reading the session and identity; pass it to `set`. */
  stamp(): StoreStamp {
    return {
      writes: this.#relatedWrites(),
      others: this.#counts.otherConnectionsVersion(),
    };
  }

  /**
   * The entry of a token hash, if usable; `current` is a stamp just taken (the caller passes it on
   * to `set` after a miss, so a request asks SQLite for `data_version` once).
   */
  get(tokenHash: string, now: Date, current: StoreStamp = this.stamp()): CachedWhoami | undefined {
    if (this.#entries.size === 0) return undefined;
    if (!sameStamp(current, this.#stamp)) {
      this.#clear();
      return undefined;
    }
    const found = this.#entries.get(tokenHash);
    if (!found) return undefined;
    if (now.getTime() >= found.entry.expiresAtMs) {
      this.#delete(tokenHash);
      return undefined;
    }
    return found.entry;
  }

  /**
   * Keeps an answer read after `readAt`, unless this process wrote something it depends on since.
   * Another process's commit since `readAt` is not asked for again (`data_version` costs a
   * statement): any later `get` takes a stamp past `readAt`, which empties the cache, so such an
   * entry is never answered.
   */
  set(tokenHash: string, readAt: StoreStamp, entry: CachedWhoami): void {
    if (this.#relatedWrites() !== readAt.writes) return;
    if (!sameStamp(readAt, this.#stamp)) {
      this.#clear();
      this.#stamp = readAt;
    }
    this.#delete(tokenHash);
    const bytes = entryBytes(entry);
    if (bytes > this.#maxBytes) return;
    while (this.#bytes + bytes > this.#maxBytes) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#delete(oldest.value);
    }
    this.#entries.set(tokenHash, { entry, bytes });
    this.#bytes += bytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The estimated heap the entries hold (see `entryBytes`). */
  get bytes(): number {
    return this.#bytes;
  }

  #delete(tokenHash: string): void {
    const found = this.#entries.get(tokenHash);
    if (!found) return;
    this.#entries.delete(tokenHash);
    this.#bytes -= found.bytes;
  }

  #clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}

function sameStamp(a: StoreStamp, b: StoreStamp): boolean {
  return a.writes === b.writes && a.others === b.others;
}
