import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it, vi } from "vitest";
import { databaseFileName, openDatabase } from "./database.ts";

const root = mkdtempSync(path.join(tmpdir(), "wal-checkpoint-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Opens a store in its own folder, creates a filler table; `pages` of the file and its WAL. */
async function filledStore(name: string) {
  const dir = path.join(root, name);
  const db = await openDatabase(dir, { migrate: false });
  await sql`create table filler (id integer primary key, body blob not null)`.execute(db);
  const { rows } = await sql<{ page_size: number }>`PRAGMA page_size`.execute(db);
  const pageSize = Number(rows[0]?.page_size);
  const pages = (suffix: string) =>
    statSync(path.join(dir, `${databaseFileName}${suffix}`)).size / pageSize;
  // Each commit: a 3 KB row, at least one page of WAL.
  const fill = async (count: number) => {
    for (let i = 0; i < count; i++) {
      await sql`insert into filler (body) values (randomblob(3000))`.execute(db);
    }
  };
  return { db, pages, fill };
}

describe("WAL checkpoints", () => {
  // SQLite's default checkpoints every 1,000 pages inside a commit, stalling the event loop on
  // two file flushes; the store lets the WAL grow ten times as far first.
  it("lets commits fill the WAL past SQLite's default 1,000 pages without a checkpoint", async () => {
    const { db, pages, fill } = await filledStore("burst");
    try {
      await fill(2_500);
      expect(pages("-wal")).toBeGreaterThan(2_000);
    } finally {
      await db.destroy();
    }
  });

  it("checkpoints once writes pause", async () => {
    const { db, pages, fill } = await filledStore("pause");
    try {
      await fill(200);
      // Still in the WAL: far below any automatic checkpoint.
      expect(pages("")).toBeLessThan(50);
      await vi.waitFor(() => expect(pages("")).toBeGreaterThan(200), {
        timeout: 20_000,
        interval: 100,
      });
    } finally {
      await db.destroy();
    }
  });
});
