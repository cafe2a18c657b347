import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { hostname } from "node:os";
import { insertMessage } from "../store/courier-messages.ts";
import type { Executor } from "../store/schema.ts";
import { claimLeaseMs, newWorkerId, requeueAbandonedClaims } from "./claims.ts";
import { openDatabase } from "../store/database.ts";

// Two processes each running a courier over one database: every queued message is sent exactly
// once. The second worker starts while the first holds a batch of claimed ("processing") messages,
// which a start used to queue again for itself; then both claim from the same queue at once.

const childScript = fileURLToPath(new URL("../test-support/courier-child.ts", import.meta.url));
const root = mkdtempSync(path.join(tmpdir(), "courier-claims-"));
const children: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

interface Worker {
  sent: string[];
  failedRuns: () => number;
  send(line: string): void;
  exited: Promise<number | null>;
}

/** Every message a worker sends, in order, with a wait for a number of them across workers. */
class Deliveries {
  readonly all: string[] = [];
  readonly #waiters: { count: number; resolve: () => void }[] = [];

  record(id: string): void {
    this.all.push(id);
    for (const waiter of this.#waiters) if (this.all.length >= waiter.count) waiter.resolve();
  }

  atLeast(count: number): Promise<void> {
    if (this.all.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }
}

async function startWorker(dataDir: string, deliveries: Deliveries): Promise<Worker> {
  const child = spawn(process.execPath, [childScript, dataDir], {
    env: { PATH: process.env.PATH },
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const sent: string[] = [];
  let failed = 0;
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  createInterface({ input: child.stdout }).on("line", (line) => {
    if (line === "ready") ready();
    else if (line === "failed") failed++;
    else if (line.startsWith("sent ")) {
      sent.push(line.slice(5));
      deliveries.record(line.slice(5));
    }
  });
  await Promise.race([isReady, exited.then(() => Promise.reject(new Error(stderr)))]);
  return {
    sent,
    failedRuns: () => failed,
    send: (line) => child.stdin.write(`${line}\n`),
    exited,
  };
}

async function queueMessages(db: Executor, count: number, now: Date): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    ids.push(id);
    await insertMessage(db, {
      id,
      channel: "email",
      status: "queued",
      recipient: `person-${i}@example.org`,
      subject: "Subject",
      body: "Body",
      templateType: "verification_code_valid",
      templateData: {},
      locale: "en",
      sendCount: 0,
      nextAttemptAt: now,
      lastError: undefined,
      createdAt: new Date(now.getTime() + i),
      updatedAt: now,
    });
  }
  return ids;
}

/** The id of a process of this host that has exited. */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid ?? 0;
}

describe("claims left by a worker", () => {
  it("are queued again when their process has exited, lacks a worker or the lease ran out", async () => {
    const db = await openDatabase(path.join(root, "claims"));
    try {
      const now = new Date();
      const [dead, unnamed, expired, live, mine] = await queueMessages(db, 5, now);
      const me = newWorkerId();
      const claims: [string | undefined, string | null, Date][] = [
        [dead, `${hostname()}/${await exitedPid()}/aaaaaaaa`, now],
        [unnamed, null, now],
        [expired, "elsewhere/1/bbbbbbbb", new Date(now.getTime() - claimLeaseMs - 1000)],
        [live, "elsewhere/1/cccccccc", now],
        [mine, me, new Date(now.getTime() - claimLeaseMs - 1000)],
      ];
      for (const [id, claimedBy, at] of claims) {
        await db
          .updateTable("courier_messages")
          .set({ status: "processing", claimed_by: claimedBy, updated_at: at.toISOString() })
          .where("id", "=", id ?? "")
          .execute();
      }
      expect(await requeueAbandonedClaims(db, me, now)).toBe(3);
      const rows = await db.selectFrom("courier_messages").select(["id", "status"]).execute();
      const status = new Map(rows.map((row) => [row.id, row.status]));
      expect([dead, unnamed, expired, live, mine].map((id) => status.get(id ?? ""))).toEqual([
        "queued",
        "queued",
        "queued",
        "processing",
        "processing",
      ]);
    } finally {
      await db.destroy();
    }
  });
});

describe("couriers of two processes on one database", () => {
  it("send every message exactly once", async () => {
    const dataDir = path.join(root, "data");
    const total = 200;
    const db = await openDatabase(dataDir);
    let ids: string[];
    try {
      ids = await queueMessages(db, total, new Date());
    } finally {
      await db.destroy();
    }

    const deliveries = new Deliveries();
    const [first, second] = await Promise.all([
      startWorker(dataDir, deliveries),
      startWorker(dataDir, deliveries),
    ]);
    first.send("start");
    // The first has claimed its first batch and is delivering it when the second starts.
    await deliveries.atLeast(1);
    second.send("start");
    await deliveries.atLeast(total);
    first.send("stop");
    second.send("stop");
    expect(await first.exited).toBe(0);
    expect(await second.exited).toBe(0);

    const sent = deliveries.all;
    const duplicates = sent.filter((id, index) => sent.indexOf(id) !== index);
    expect(duplicates).toEqual([]);
    expect(new Set(sent)).toEqual(new Set(ids));
    // Both took part, and no dispatch run failed on the other's locks.
    expect(second.sent.length).toBeGreaterThan(0);
    expect(first.failedRuns() + second.failedRuns()).toBe(0);

    const check = await openDatabase(dataDir);
    try {
      const rows = await check
        .selectFrom("courier_message_dispatches")
        .select(({ fn }) => ["message_id", fn.countAll<number>().as("n")])
        .groupBy("message_id")
        .execute();
      expect(rows).toHaveLength(total);
      expect(rows.every((row) => Number(row.n) === 1)).toBe(true);
      const statuses = await check.selectFrom("courier_messages").select("status").execute();
      expect(statuses.every((row) => row.status === "sent")).toBe(true);
    } finally {
      await check.destroy();
    }
  });
});
