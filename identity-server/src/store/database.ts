import { mkdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { Kysely, SqliteDialect, type SqliteDatabase } from "kysely";
import type { Database } from "./schema.ts";
import { migrate } from "./migrations.ts";

/** Lets Kysely's SQLite dialect drive Node's built-in `node:sqlite` (it expects better-sqlite3). */
function nodeSqliteAdapter(db: DatabaseSync): SqliteDatabase {
  return {
    close: () => db.close(),
    prepare(text) {
      const statement = db.prepare(text);
      const args = (parameters: ReadonlyArray<unknown>) => parameters as SQLInputValue[];
      return {
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...args(parameters)),
        run: (parameters) => {
          const result = statement.run(...args(parameters));
          return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
        },
        iterate: (parameters) => statement.iterate(...args(parameters)),
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
