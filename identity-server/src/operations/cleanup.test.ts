import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { databaseFileName, openDatabase } from "../store/database.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { pruneExpired } from "./cleanup.ts";
import { runOperationsCommand } from "./operations-command-runner.ts";

const minute = 60_000;
let ts: TestServer | undefined;
afterEach(async () => {
  await ts?.stop();
  ts = undefined;
});

function rowCounts(dataDir: string, tables: string[]): Record<string, number> {
  const db = new DatabaseSync(path.join(dataDir, databaseFileName), { readOnly: true });
  try {
    return Object.fromEntries(
      tables.map((table) => {
        const row = db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number };
        return [table, Number(row.n)];
      }),
    );
  } finally {
    db.close();
  }
}

/** `count` API login flows (a page view each), `parallel` at a time. */
async function viewLoginPages(server: TestServer, count: number, parallel = 25): Promise<void> {
  for (let done = 0; done < count; done += parallel) {
    await Promise.all(
      Array.from({ length: Math.min(parallel, count - done) }, async () => {
        const response = await fetch(`${server.publicUrl}/self-service/login/api`);
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }),
    );
  }
}

const tables = ["selfservice_flows", "sessions", "one_time_codes", "courier_messages"];

describe("pruning expired rows", () => {
  it("removes expired flows, codes and sent messages, and nothing still valid", async () => {
    const server = await startTestServer({
      IDENTITY_FLOW_LIFESPAN: "1m",
      IDENTITY_CLEANUP_INTERVAL: "0",
    });
    ts = server;
    // The registration's verification code and a recovery code: two flows with a code row and a
    // courier message each, both sent by the mailbox.
    let sentCount = 0;
    const sent = new Promise<void>((resolve) =>
      server.courier.on("sent", () => {
        if (++sentCount === 2) resolve();
      }),
    );
    const { token } = await registerNative(server, "kept@example.com");
    const recovery = await server.native().createNativeRecoveryFlow();
    await server.native().updateRecoveryFlow({
      flow: recovery.id,
      updateRecoveryFlowBody: { method: "code", email: "kept@example.com" },
    });
    await sent;
    await viewLoginPages(server, 500);

    // Two hours on: the flows (1 minute) and the code (1 hour) have expired, the session (24 hours)
    // has not; a flow made now is fresh.
    server.advanceClock(120 * minute);
    const fresh = await server.native().createNativeLoginFlow();
    const before = rowCounts(server.dataDir, tables);
    expect(before).toEqual({
      selfservice_flows: 500 + 4, // the views, registration, verification, recovery, the fresh one
      sessions: 1,
      one_time_codes: 2,
      courier_messages: 2,
    });

    const db = await openDatabase(server.dataDir);
    try {
      // Kept for three hours after expiry (Kratos' --keep-last): nothing is old enough yet.
      const kept = await pruneExpired(db, server.now(), {
        keepAfterExpiryMs: 180 * minute,
        courierRetentionMs: 180 * minute,
      });
      expect(kept).toMatchObject({ selfservice_flows: 0, one_time_codes: 0, courier_messages: 0 });
      expect(rowCounts(server.dataDir, tables)).toEqual(before);

      const removed = await pruneExpired(db, server.now(), {
        keepAfterExpiryMs: 0,
        courierRetentionMs: 60 * minute,
      });
      // The codes went with their flows (the foreign key cascades).
      expect(removed).toMatchObject({ selfservice_flows: 503, sessions: 0, courier_messages: 2 });
    } finally {
      await db.destroy();
    }
    expect(rowCounts(server.dataDir, tables)).toEqual({
      selfservice_flows: 1,
      sessions: 1,
      one_time_codes: 0,
      courier_messages: 0,
    });
    // The live session and the fresh flow still work.
    expect((await server.native().toSession({ xSessionToken: token })).active).toBe(true);
    expect((await server.native().getLoginFlow({ id: fresh.id })).id).toBe(fresh.id);
  }, 120_000);

  it("removes an expired session with its devices and keeps a live one", async () => {
    const server = await startTestServer({
      IDENTITY_SESSION_LIFESPAN: "1h",
      IDENTITY_CLEANUP_INTERVAL: "0",
    });
    ts = server;
    await registerNative(server, "expired@example.com");
    server.advanceClock(120 * minute);
    const { token } = await registerNative(server, "live@example.com");
    expect(rowCounts(server.dataDir, ["sessions", "session_devices"])).toEqual({
      sessions: 2,
      session_devices: 2,
    });
    const db = await openDatabase(server.dataDir);
    try {
      const removed = await pruneExpired(db, server.now(), {
        keepAfterExpiryMs: 0,
        courierRetentionMs: 60 * minute,
      });
      expect(removed.sessions).toBe(1);
    } finally {
      await db.destroy();
    }
    expect(rowCounts(server.dataDir, ["sessions", "session_devices"])).toEqual({
      sessions: 1,
      session_devices: 1,
    });
    expect((await server.native().toSession({ xSessionToken: token })).active).toBe(true);
  });

  it("keeps the flows table bounded under repeated page views while the schedule runs", async () => {
    const removals: (() => void)[] = [];
    const lines = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (chunk.toString().includes('"msg":"expired rows removed"')) {
          for (const resolve of removals.splice(0)) resolve();
        }
        done();
      },
    });
    const server = await startTestServer(
      {
        IDENTITY_FLOW_LIFESPAN: "1m",
        IDENTITY_CLEANUP_INTERVAL: "50ms",
        IDENTITY_CLEANUP_KEEP_AFTER_EXPIRY: "0",
      },
      undefined,
      { logger: pino({ level: "info" }, lines) },
    );
    ts = server;
    const sizes: number[] = [];
    for (let round = 0; round < 10; round++) {
      await viewLoginPages(server, 50);
      sizes.push(rowCounts(server.dataDir, ["selfservice_flows"]).selfservice_flows ?? 0);
      // Waits for the schedule's next removal once these flows have expired.
      const removed = new Promise<void>((resolve) => removals.push(resolve));
      server.advanceClock(2 * minute);
      await removed;
    }
    // 500 views, never more than one round's flows at a time.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(50);
    expect(rowCounts(server.dataDir, ["selfservice_flows"]).selfservice_flows).toBe(0);
  }, 120_000);

  it("npm run cleanup prunes a running server's data dir and says what it removed", async () => {
    // Flows that expire at once, in the wall clock the command reads.
    const server = await startTestServer({ IDENTITY_FLOW_LIFESPAN: "1ms" });
    ts = server;
    await viewLoginPages(server, 20);
    const result = await runOperationsCommand(["cleanup"], {
      IDENTITY_DATA_DIR: server.dataDir,
      IDENTITY_CLEANUP_KEEP_AFTER_EXPIRY: "0",
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Removed expired rows: selfservice_flows 20, one_time_codes 0, sessions 0, /,
    );
    expect(rowCounts(server.dataDir, ["selfservice_flows"]).selfservice_flows).toBe(0);
  }, 60_000);
});
