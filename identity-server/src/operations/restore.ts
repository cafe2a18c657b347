import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { databaseFileName } from "../store/database.ts";
import { generatedKeyFile } from "../session/tokenizer.ts";
import { backupFilesTable } from "./backup.ts";
import { databaseFiles, heldByAnotherProcess, sideFiles } from "./data-dir-files.ts";
import { OperationError } from "./operation-error.ts";

export interface RestoreResult {
  dataDir: string;
  /** The files besides the database that were restored (secret, keys). */
  sideFiles: string[];
  /** What was there before and got replaced (only with `force`). */
  replaced: string[];
}

interface CarriedFile {
  name: string;
  mode: number;
  content: Uint8Array;
}

/** Reads and checks a backup: a sound SQLite file made by `backupDataDir`. */
function readBackup(file: string): CarriedFile[] {
  if (!existsSync(file)) throw new OperationError(`${file} does not exist.`);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    throw new OperationError(`${file} cannot be opened (${(error as Error).message}).`);
  }
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((row) => row.name);
    if (!tables.includes(backupFilesTable) || !tables.includes("schema_migrations")) {
      throw new OperationError(`${file} is not a backup made by "npm run backup".`);
    }
    const check = db.prepare("PRAGMA quick_check").all();
    if (check.length !== 1 || check[0]?.quick_check !== "ok") {
      throw new OperationError(`${file} is damaged (SQLite's quick_check failed).`);
    }
    return db
      .prepare(`SELECT name, mode, content FROM ${backupFilesTable} ORDER BY name`)
      .all() as unknown as CarriedFile[];
  } catch (error) {
    if (error instanceof OperationError) throw error;
    throw new OperationError(
      `${file} is not a backup made by "npm run backup" (${(error as Error).message}).`,
    );
  } finally {
    db.close();
  }
}

/**
 * Puts a backup into `dataDir`. Refuses while a server holds the data dir (even with `force`), and
 * refuses to replace a data dir that already holds data unless `force`. The database is copied
 * under a temporary name and renamed into place last, after any old -wal/-shm files are gone (a
 * stale WAL beside a replaced database would be replayed into it).
 */
export function restoreDataDir(
  file: string,
  dataDir: string,
  options: { force?: boolean } = {},
): RestoreResult {
  const carried = readBackup(file);
  if (heldByAnotherProcess(dataDir)) {
    throw new OperationError(
      `A running identity server holds ${dataDir} (IDENTITY_DATA_DIR); stop it before restoring.`,
    );
  }
  const present = [
    ...databaseFiles.filter((name) => existsSync(path.join(dataDir, name))),
    ...sideFiles(dataDir),
  ];
  if (present.length > 0 && !options.force) {
    throw new OperationError(
      `${dataDir} (IDENTITY_DATA_DIR) already holds data (${present.join(", ")}); pass --force to replace it.`,
    );
  }
  mkdirSync(dataDir, { recursive: true });
  const incoming = path.join(dataDir, `${databaseFileName}.restore.tmp`);
  copyFileSync(file, incoming);
  const db = new DatabaseSync(incoming);
  try {
    db.exec(`DROP TABLE ${backupFilesTable}`);
  } finally {
    db.close();
  }
  // Whatever the old state had that the backup does not (e.g. a key made after it) goes too.
  const stale = new Set([
    ...databaseFiles,
    "secret",
    generatedKeyFile,
    ...carried.map((f) => f.name),
  ]);
  for (const name of stale) rmSync(path.join(dataDir, name), { force: true });
  for (const { name, mode, content } of carried) {
    const target = path.join(dataDir, path.basename(name));
    writeFileSync(target, content, { mode: mode & 0o777 });
    chmodSync(target, mode & 0o777);
  }
  chmodSync(incoming, 0o600);
  renameSync(incoming, path.join(dataDir, databaseFileName));
  return { dataDir, sideFiles: carried.map((f) => f.name), replaced: present };
}
