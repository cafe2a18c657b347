import { mkdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { Kysely, SqliteDialect, type SqliteDatabase } from "kysely";
import type { Database } from "./schema.ts";
import { migrate } from "./migrations.ts";

// Kysely prepares every query it runs; the statements it sends are a small fixed set (parameters are
// bound separately), so prepared statements are kept and reused, least recently used dropped first.
const statementCacheSize = 500;

/** Lets Kysely's SQLite dialect drive Node's built-in `node:sqlite` (it expects better-sqlite3). */
function nodeSqliteAdapter(db: DatabaseSync): SqliteDatabase {
  const statements = new Map<string, { statement: StatementSync; reader: boolean }>();
  const prepared = (text: string) => {
    let entry = statements.get(text);
    if (entry) {
      statements.delete(text);
    } else {
      const statement = db.prepare(text);
      entry = { statement, reader: statement.columns().length > 0 };
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
      statements.clear();
      db.close();
    },
    prepare(text) {
      const { statement, reader } = prepared(text);
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
    },
  };
}

export const databaseFileName = "identity.sqlite";

/** Opens (creating if needed) the SQLite database in the data dir and brings its schema up to date. */
export async function openDatabase(dataDir: string): Promise<Kysely<Database>> {
  mkdirSync(dataDir, { recursive: true });
  const file = new DatabaseSync(path.join(dataDir, databaseFileName));
  // WAL lets readers proceed during writes; FULL sync makes a committed registration survive power loss.
  file.exec("PRAGMA journal_mode = WAL");
  file.exec("PRAGMA synchronous = FULL");
  file.exec("PRAGMA foreign_keys = ON");
  file.exec("PRAGMA busy_timeout = 5000");
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: nodeSqliteAdapter(file) }),
  });
  await migrate(db);
  return db;
}
