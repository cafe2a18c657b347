import { mkdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { Kysely, SqliteDialect, type SqliteDatabase } from "kysely";
import type { Database } from "./schema.ts";
import { migrate } from "./migrations.ts";
import { OtherCommits } from "./other-commits.ts";
import { checkpointWhenQuiet } from "./quiet-checkpoint.ts";

/**
 * What this process has written, per table, counted by the store layer on its own connection, and
 * whether another connection committed since (SQLite's `PRAGMA data_version`). A reader that
 * remembers the counts it saw knows for certain that nothing it depends on changed while they are
 * the same (the whoami cache relies on it). Statements whose table cannot be told (DDL, raw SQL,
 * a `rollback`) count as a write to every table (`anyTable`).
 */
export class WriteCounts {
  static readonly anyTable = "*";
  readonly #counts = new Map<string, number>();
  readonly #watchers: { exempt: ReadonlySet<string>; writes: number }[] = [];
  readonly #otherCommits: OtherCommits;

  /** `walIndexPath`: the database's `-shm` file, read to skip asking SQLite when nothing changed. */
  constructor(file: DatabaseSync, walIndexPath?: string) {
    const dataVersion = file.prepare("PRAGMA data_version");
    dataVersion.setReturnArrays(true);
    this.#otherCommits = new OtherCommits(
      () => Number((dataVersion.get() as unknown as [number])[0]),
      walIndexPath,
    );
  }

  /** Counts one statement that wrote (or may have written) `table`. */
  wrote(table: string): void {
    this.#counts.set(table, (this.#counts.get(table) ?? 0) + 1);
    for (const watcher of this.#watchers) if (!watcher.exempt.has(table)) watcher.writes++;
  }

  /** Writes so far to `table` (statements of unknown table are counted under `anyTable`). */
  writesTo(table: string): number {
    return this.#counts.get(table) ?? 0;
  }

  /**
   * A counter of the writes from now on to every table except `exempt`, including statements of
   * unknown table. It only grows, so an unchanged value means no such write happened in between.
   */
  watch(exempt: ReadonlySet<string>): () => number {
    const watcher = { exempt, writes: 0 };
    this.#watchers.push(watcher);
    return () => watcher.writes;
  }

  /** Changes when another connection (another process) commits to the database file. */
  otherConnectionsVersion(): number {
    return this.#otherCommits.version();
  }

  /** Before the connection closes. */
  close(): void {
    this.#otherCommits.close();
  }
}

// `insert into "t"`, `replace into "t"`, `update "t"`, `delete from "t"` as Kysely writes them.
const writeStatement =
  /^\s*(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?[\s(]/i;
// Statements that change nothing by themselves (a rollback does: it undoes writes others may have read).
const harmlessStatement =
  /^\s*(?:select|begin|commit|end|savepoint|release|pragma\s+data_version)\b/i;

/** The table a statement writes, `WriteCounts.anyTable` when unknown, undefined for reads. */
export function tableWrittenBy(text: string): string | undefined {
  const write = writeStatement.exec(text);
  if (write) return write[1];
  if (harmlessStatement.test(text)) return undefined;
  return WriteCounts.anyTable;
}

const writeCountsOf = new WeakMap<object, WriteCounts>();
const busyListenersOf = new WeakMap<object, Set<() => void>>();

/** SQLITE_BUSY and its extended codes: the database stayed locked past the busy timeout. */
function isBusyError(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | undefined)?.errcode;
  return typeof code === "number" && (code & 0xff) === 5;
}

/** Calls `listener` whenever a statement of `db` fails with SQLITE_BUSY (the metrics count them). */
export function onDatabaseBusy(db: Kysely<Database>, listener: () => void): void {
  busyListenersOf.get(db)?.add(listener);
}

/** The write counts of a database opened by `openDatabase`. */
export function writeCounts(db: Kysely<Database>): WriteCounts {
  const counts = writeCountsOf.get(db);
  if (!counts) throw new Error("writeCounts: not a database opened by openDatabase");
  return counts;
}

// Kysely prepares every query it runs; the statements it sends are a small fixed set (parameters are
// bound separately), so prepared statements are kept and reused, least recently used dropped first.
const statementCacheSize = 500;

/** Lets Kysely's SQLite dialect drive Node's built-in `node:sqlite` (it expects better-sqlite3). */
function nodeSqliteAdapter(
  db: DatabaseSync,
  counts: WriteCounts,
  observe: ((text: string) => void) | undefined,
  beforeClose: () => void,
): SqliteDatabase {
  const statements = new Map<
    string,
    { statement: StatementSync; reader: boolean; writes: string | undefined }
  >();
  const prepared = (text: string) => {
    let entry = statements.get(text);
    if (entry) {
      statements.delete(text);
    } else {
      const statement = db.prepare(text);
      entry = {
        statement,
        reader: statement.columns().length > 0,
        writes: tableWrittenBy(text),
      };
      if (statements.size >= statementCacheSize) {
        const oldest = statements.keys().next();
        if (!oldest.done) statements.delete(oldest.value);
      }
    }
    statements.set(text, entry);
    return entry;
  };
  const args = (parameters: ReadonlyArray<unknown>) => parameters as SQLInputValue[];
  return {
    close: () => {
      beforeClose();
      statements.clear();
      db.close();
    },
    prepare(text) {
      observe?.(text);
      const { statement, reader, writes } = prepared(text);
      if (writes === undefined) {
        return {
          reader,
          all: (parameters) => statement.all(...args(parameters)),
          run: (parameters) => {
            const result = statement.run(...args(parameters));
            return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
          },
          // A streamed query keeps its statement busy until the stream ends: it gets its own.
          iterate: (parameters) => db.prepare(text).iterate(...args(parameters)),
        };
      }
      // Counted whether or not the statement succeeds (a failed one may have changed rows).
      return {
        reader,
        all: (parameters) => {
          try {
            return statement.all(...args(parameters));
          } finally {
            counts.wrote(writes);
          }
        },
        run: (parameters) => {
          try {
            const result = statement.run(...args(parameters));
            return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
          } finally {
            counts.wrote(writes);
          }
        },
        // Counted when the stream starts and again when it ends (a RETURNING write may be lazy).
        iterate: (parameters) => {
          counts.wrote(writes);
          const rows = db.prepare(text).iterate(...args(parameters));
          return (function* () {
            try {
              yield* rows;
            } finally {
              counts.wrote(writes);
            }
          })();
        },
      };
    },
  };
}

export const databaseFileName = "identity.sqlite";

/** WAL pages after which a commit checkpoints (see openDatabase). */
const walAutocheckpointPages = 10_000;

/**
 * `PRAGMA journal_mode = WAL`, retried while another process switching the same new file holds
 * its lock: SQLite answers that case "database is locked" at once, without the busy timeout
 * (seen with four processes starting together on a new data dir). The mode is stored in the
 * file, so once one process has switched it the others find it done.
 */
function switchToWal(file: DatabaseSync): void {
  const deadline = Date.now() + 10_000;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      file.exec("PRAGMA journal_mode = WAL");
      return;
    } catch (error) {
      if (!isBusyError(error) || Date.now() > deadline) throw error;
      // Synchronous like the rest of opening: a short pause before asking again.
      Atomics.wait(pause, 0, 0, 20);
    }
  }
}

/**
 * Opens (creating if needed) the SQLite database in the data dir and, unless `migrate` is false,
 * brings its schema up to date.
 */
export async function openDatabase(
  dataDir: string,
  options: {
    migrate?: boolean;
    /**
     * "normal" (the default): a commit is written to the WAL without waiting for the disk; the
     * flush happens at checkpoints. A committed write survives the process being killed (the OS
     * holds it), not a power loss or OS crash in the moment after. "full": every commit waits for
     * the disk (two flushes per sign-in), surviving a power loss too.
     */
    synchronous?: "normal" | "full";
    /** Called with the text of every statement run (tests check the query plans of hot paths). */
    observeStatements?: (text: string) => void;
  } = {},
): Promise<Kysely<Database>> {
  mkdirSync(dataDir, { recursive: true });
  const filePath = path.join(dataDir, databaseFileName);
  const file = new DatabaseSync(filePath);
  // First: switching a new file to WAL takes a lock another process starting at once may hold.
  file.exec("PRAGMA busy_timeout = 5000");
  // WAL lets readers proceed during writes.
  switchToWal(file);
  file.exec(`PRAGMA synchronous = ${options.synchronous === "full" ? "FULL" : "NORMAL"}`);
  // A checkpoint runs inside the commit that fills the WAL past this many pages, on the event loop:
  // it copies the pages into the database file and flushes both files, up to tens of milliseconds
  // during which no request moves and the argon2id pool threads run dry. SQLite's 1,000 pages
  // (4 MB) came every ~100 sign-ins; with 10,000 (40 MB of WAL on disk) a burst of ~1,000
  // sign-ins passes without one, and the checkpoint runs once writes pause (quiet-checkpoint.ts).
  file.exec(`PRAGMA wal_autocheckpoint = ${walAutocheckpointPages}`);
  file.exec("PRAGMA foreign_keys = ON");
  const counts = new WriteCounts(file, `${filePath}-shm`);
  const stopCheckpoints = checkpointWhenQuiet(file, counts);
  const busyListeners = new Set<() => void>();
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({
      database: nodeSqliteAdapter(file, counts, options.observeStatements, () => {
        stopCheckpoints();
        counts.close();
      }),
    }),
    log: (event) => {
      if (event.level === "error" && isBusyError(event.error)) {
        for (const listener of busyListeners) listener();
      }
    },
  });
  writeCountsOf.set(db, counts);
  busyListenersOf.set(db, busyListeners);
  if (options.migrate !== false) await migrate(db);
  return db;
}
