import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { databaseFileName } from "../store/database.ts";

// What a data dir holds: the SQLite database (with its -wal/-shm/-journal companions while open)
// and small files made on first start (the generated secret, the session tokenizer's key). The
// OAuth2 signing keys live sealed inside the database, so the database and these files are all.

/** The database file and the companions SQLite keeps next to it. */
export const databaseFiles = ["", "-wal", "-shm", "-journal"].map(
  (suffix) => `${databaseFileName}${suffix}`,
);

/** The data dir's other top-level files (secret, keys), which a backup carries along. */
export function sideFiles(dataDir: string): string[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir)
    .filter((name) => !databaseFiles.includes(name) && !name.endsWith(".tmp"))
    .filter((name) => statSync(path.join(dataDir, name)).isFile())
    .sort();
}

/**
 * Whether another process has the data dir's database open. A WAL-mode connection keeps a shared
 * lock on the database file for as long as it is open, so asking for an exclusive one, without
 * waiting, fails exactly while a server (or any other process) holds it. The lock is per process:
 * call this from a process that has not opened the database itself.
 */
export function heldByAnotherProcess(dataDir: string): boolean {
  const file = path.join(dataDir, databaseFileName);
  if (!existsSync(file)) return false;
  const probe = new DatabaseSync(file);
  try {
    probe.exec("PRAGMA busy_timeout = 0");
    probe.exec("PRAGMA locking_mode = EXCLUSIVE");
    probe.exec("BEGIN EXCLUSIVE");
    probe.exec("COMMIT");
    return false;
  } catch (error) {
    if (/locked|busy/i.test((error as Error).message)) return true;
    throw error;
  } finally {
    probe.close();
  }
}
