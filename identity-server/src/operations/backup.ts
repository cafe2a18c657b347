import {
  chmodSync,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { backup, DatabaseSync } from "node:sqlite";
import { databaseFileName } from "../store/database.ts";
import { sideFiles } from "./data-dir-files.ts";
import { OperationError } from "./operation-error.ts";

/** The table in a backup file that carries the data dir's other files (secret, keys). */
export const backupFilesTable = "backup_data_dir_files";

export interface BackupResult {
  file: string;
  bytes: number;
  /** The data dir's files other than the database, carried in the backup. */
  sideFiles: string[];
}

// SQLite's online backup restarts whenever another connection (the running server) writes between
// two steps, so under steady writes a many-step backup might never finish. One step copies every
// page inside a single read transaction: a consistent snapshot, and WAL lets the server keep
// writing meanwhile. (node:sqlite refuses a negative rate, SQLite's "all pages", hence the max.)
const allPagesInOneStep = 2_147_483_647;

/**
 * Copies the data dir's database, while the server may be running, into `file`, a SQLite database
 * that also carries the data dir's other files. Written beside `file` first, then renamed, so a
 * half-written backup never has the final name. The file holds the secret: mode 0600.
 */
export async function backupDataDir(
  dataDir: string,
  file: string,
  options: { force?: boolean } = {},
): Promise<BackupResult> {
  const source = path.join(dataDir, databaseFileName);
  if (!existsSync(source)) {
    throw new OperationError(`There is no identity database in ${dataDir} (IDENTITY_DATA_DIR).`);
  }
  if (existsSync(file) && statSync(file).isDirectory()) {
    throw new OperationError(`${file} is a folder; name the backup file to write.`);
  }
  if (existsSync(file) && !options.force) {
    throw new OperationError(`${file} already exists; pass --force to replace it.`);
  }
  const partial = `${file}.${process.pid}.tmp`;
  rmSync(partial, { force: true });
  // Created empty and private before SQLite writes into it: the copy holds password hashes and the
  // secret from its first page, and SQLite gives its journal the same mode as the file.
  writeFileSync(partial, "", { mode: 0o600, flag: "wx" });
  const db = new DatabaseSync(source, { readOnly: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    await backup(db, partial, { rate: allPagesInOneStep });
  } finally {
    db.close();
  }
  const carried = sideFiles(dataDir);
  const target = new DatabaseSync(partial);
  try {
    // One file to keep: no WAL beside it.
    target.exec("PRAGMA journal_mode = DELETE");
    target.exec(
      `CREATE TABLE ${backupFilesTable} (name TEXT PRIMARY KEY, mode INTEGER NOT NULL, content BLOB NOT NULL)`,
    );
    const insert = target.prepare(`INSERT INTO ${backupFilesTable} VALUES (?, ?, ?)`);
    for (const name of carried) {
      const fullName = path.join(dataDir, name);
      insert.run(name, statSync(fullName).mode & 0o777, readFileSync(fullName));
    }
  } finally {
    target.close();
  }
  chmodSync(partial, 0o600);
  renameSync(partial, file);
  return { file, bytes: statSync(file).size, sideFiles: carried };
}
