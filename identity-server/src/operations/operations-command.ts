import path from "node:path";
import { ConfigError, loadConfig } from "../config/config.ts";
import { backupDataDir } from "./backup.ts";
import { OperationError } from "./operation-error.ts";
import { restoreDataDir } from "./restore.ts";
import { openDatabase } from "../store/database.ts";
import { pruneExpired } from "./cleanup.ts";
import { migrateDataDir } from "./migrate.ts";

// `npm run backup -- <file>`, `npm run restore -- <file>`, `npm run cleanup`, `npm run migrate`: the data dir is IDENTITY_DATA_DIR, read
// and checked as the server reads it. Paths are taken relative to where npm was started (npm runs
// scripts from the package root and keeps the caller's directory in INIT_CWD).

const usage = `Usage:
  npm run backup -- <file> [--force]    copy the data dir (also while the server runs) into <file>
  npm run restore -- <file> [--force]   put <file> into IDENTITY_DATA_DIR (server stopped)
  npm run cleanup                       remove expired flows, sessions, codes, messages, OAuth2 rows
  npm run migrate                       apply the pending schema migrations, then exit`;

function fail(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = 1;
}

async function run(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  const force = rest.includes("--force");
  const unknown = rest.filter((arg) => arg.startsWith("-") && arg !== "--force");
  const files = rest.filter((arg) => !arg.startsWith("-"));
  if (unknown.length > 0) return fail(`Unknown option ${unknown.join(", ")}.\n${usage}`);
  const config = loadConfig(process.env);
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const only = files.length === 1 ? path.resolve(cwd, files[0] ?? "") : undefined;
  switch (command) {
    case "backup": {
      if (!only) return fail(`backup takes one file name.\n${usage}`);
      const started = performance.now();
      const result = await backupDataDir(config.dataDir, only, { force });
      const seconds = ((performance.now() - started) / 1000).toFixed(2);
      process.stdout.write(
        `Backed up ${config.dataDir} to ${result.file} (${result.bytes} bytes, ${seconds} s; with ${result.sideFiles.join(", ") || "no other files"}).\n`,
      );
      return;
    }
    case "restore": {
      if (!only) return fail(`restore takes one file name.\n${usage}`);
      const result = restoreDataDir(only, config.dataDir, { force });
      process.stdout.write(
        `Restored ${only} into ${result.dataDir} (with ${result.sideFiles.join(", ") || "no other files"}).\n`,
      );
      return;
    }
    case "cleanup": {
      if (files.length > 0 || force) return fail(`cleanup takes no arguments.\n${usage}`);
      const db = await openDatabase(config.dataDir);
      try {
        const counts = await pruneExpired(db, new Date(), config.cleanup);
        const removed = Object.entries(counts).map(([table, count]) => `${table} ${count}`);
        process.stdout.write(`Removed expired rows: ${removed.join(", ")}.\n`);
      } finally {
        await db.destroy();
      }
      return;
    }
    case "migrate": {
      if (files.length > 0 || force) return fail(`migrate takes no arguments.\n${usage}`);
      process.stdout.write(`${await migrateDataDir(config.dataDir)}\n`);
      return;
    }
    default:
      return fail(usage);
  }
}

try {
  await run(process.argv.slice(2));
} catch (error) {
  if (error instanceof ConfigError || error instanceof OperationError) fail(error.message);
  else throw error;
}
