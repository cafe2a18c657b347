import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OtherCommits } from "./other-commits.ts";

let dir: string;
let file: string;
let ours: DatabaseSync;
let theirs: DatabaseSync;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "other-commits-"));
  file = path.join(dir, "db.sqlite");
  ours = new DatabaseSync(file);
  ours.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x)");
  // Another process's connection as far as SQLite is concerned.
  theirs = new DatabaseSync(file);
});

afterEach(() => {
  ours.close();
  theirs.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `PRAGMA data_version` on our connection, counting how often it is asked. */
function counted(after?: () => void) {
  const statement = ours.prepare("PRAGMA data_version");
  const counter = {
    asked: 0,
    ask: () => {
      counter.asked++;
      const version = Number(statement.get()?.data_version);
      after?.();
      return version;
    },
  };
  return counter;
}

describe("OtherCommits", () => {
  it("does not ask SQLite again while nothing was committed", () => {
    const pragma = counted();
    const commits = new OtherCommits(pragma.ask, `${file}-shm`);
    const first = commits.version();
    const askedOnce = pragma.asked;
    for (let i = 0; i < 10; i++) expect(commits.version()).toBe(first);
    expect(pragma.asked).toBe(askedOnce);
    commits.close();
  });

  it("changes after another connection's commit, and not after our own", () => {
    const pragma = counted();
    const commits = new OtherCommits(pragma.ask, `${file}-shm`);
    const before = commits.version();
    ours.exec("INSERT INTO t VALUES (1)");
    expect(commits.version()).toBe(before);
    theirs.exec("INSERT INTO t VALUES (2)");
    const after = commits.version();
    expect(after).not.toBe(before);
    const asked = pragma.asked;
    expect(commits.version()).toBe(after);
    expect(pragma.asked).toBe(asked);
    commits.close();
  });

  it("sees a commit that lands between reading the index and asking SQLite", () => {
    let commitNext = false;
    const pragma = counted(() => {
      if (!commitNext) return;
      commitNext = false;
      theirs.exec("INSERT INTO t VALUES (3)");
    });
    const commits = new OtherCommits(pragma.ask, `${file}-shm`);
    ours.exec("INSERT INTO t VALUES (1)");
    commitNext = true;
    const answered = commits.version();
    expect(commitNext).toBe(false);
    expect(commits.version()).not.toBe(answered);
    commits.close();
  });

  it("asks SQLite every time without a WAL index to read", () => {
    const pragma = counted();
    const commits = new OtherCommits(pragma.ask, path.join(dir, "missing-shm"));
    commits.version();
    commits.version();
    expect(pragma.asked).toBe(3);
    theirs.exec("INSERT INTO t VALUES (4)");
    const version = commits.version();
    expect(version).toBe(Number(ours.prepare("PRAGMA data_version").get()?.data_version));
  });
});
