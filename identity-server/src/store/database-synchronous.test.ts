import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "./database.ts";

const dir = mkdtempSync(path.join(tmpdir(), "database-synchronous-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function synchronousOf(options: Parameters<typeof openDatabase>[1]): Promise<number> {
  const db = await openDatabase(dir, options);
  try {
    const { rows } = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(db);
    return Number(rows[0]?.synchronous);
  } finally {
    await db.destroy();
  }
}

describe("openDatabase", () => {
  // SQLite's codes: 1 = NORMAL, 2 = FULL. A kill -9 loses no acknowledged write with either in WAL
  // mode (hardening/crash-safety.test.ts); FULL also survives a power loss, at a flush per commit.
  it("writes without a disk flush per commit unless asked for FULL", async () => {
    expect(await synchronousOf({})).toBe(1);
    expect(await synchronousOf({ synchronous: "normal" })).toBe(1);
    expect(await synchronousOf({ synchronous: "full" })).toBe(2);
  });
});
