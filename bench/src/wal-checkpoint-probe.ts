// How long a sign-in's writes hold the event loop, with SQLite's automatic WAL checkpoint at a given
// size: a plain node:sqlite file shaped like the store's hot tables (a 2 KB flow row and its expiry
// index, a session row with four indexes), WAL and synchronous=NORMAL as the identity server opens
// it, PROBE_LOGINS (3000) times: insert the flow, then update it and insert a session in one
// transaction. Prints the wall time per sign-in (median, mean, p99, max, the time in writes over
// 3 ms: the checkpoints) and the process's CPU, for each PROBE_PAGES value in turn, alternating.
//
//   node bench/src/wal-checkpoint-probe.ts            # SQLite's 1000 pages against 10000
//   PROBE_PAGES=1000,0 PROBE_ROUNDS=3 node bench/src/wal-checkpoint-probe.ts
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

const logins = Number(process.env.PROBE_LOGINS ?? 3000);
const rounds = Number(process.env.PROBE_ROUNDS ?? 2);
const pageCounts = (process.env.PROBE_PAGES ?? "1000,10000").split(",").map(Number);

function run(pages: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), "wal-checkpoint-probe-"));
  const db = new DatabaseSync(path.join(dir, "probe.sqlite"));
  try {
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec(`PRAGMA wal_autocheckpoint = ${pages}`);
    db.exec(
      "create table flows (id text primary key, ui text not null, expires_at text not null);" +
        "create index flows_expires_at on flows (expires_at);" +
        "create table sessions (id text primary key, token_hash text not null unique, " +
        "identity_id text not null, created_at text not null, expires_at text not null);" +
        "create index sessions_identity_id on sessions (identity_id);" +
        "create index sessions_created_at_id on sessions (created_at, id);" +
        "create index sessions_expires_at on sessions (expires_at);",
    );
    const insertFlow = db.prepare("insert into flows values (?, ?, ?)");
    const updateFlow = db.prepare("update flows set expires_at = ? where id = ?");
    const insertSession = db.prepare("insert into sessions values (?, ?, ?, ?, ?)");
    const ui = "x".repeat(2100);
    const times: number[] = [];
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < logins; i++) {
      const id = randomUUID();
      const now = new Date().toISOString();
      const start = performance.now();
      insertFlow.run(id, ui, now);
      db.exec("begin");
      updateFlow.run(now, id);
      insertSession.run(randomUUID(), randomBytes(32).toString("hex"), randomUUID(), now, now);
      db.exec("commit");
      times.push(performance.now() - start);
    }
    const cpu = process.cpuUsage(cpuBefore);
    times.sort((a, b) => a - b);
    const total = times.reduce((a, b) => a + b, 0);
    const slow = times.filter((t) => t > 3);
    const at = (q: number) => (times[Math.floor(q * (times.length - 1))] ?? 0).toFixed(2);
    return (
      `median ${at(0.5)} ms, mean ${(total / logins).toFixed(3)} ms, p99 ${at(0.99)} ms, ` +
      `max ${at(1)} ms; over 3 ms: ${slow.length} writes, ${slow.reduce((a, b) => a + b, 0).toFixed(0)} of ` +
      `${total.toFixed(0)} ms; CPU ${((cpu.user + cpu.system) / logins).toFixed(0)} µs per sign-in`
    );
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

for (let round = 1; round <= rounds; round++) {
  for (const pages of pageCounts) console.log(`round ${round}, ${pages} pages: ${run(pages)}`);
}
