import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { registerNative, strongPassword } from "../test-support/flow-helpers.ts";
import { startTestServer } from "../test-support/test-server.ts";
import { databaseFileName } from "./database.ts";
import { migrations } from "./migrations.ts";

const dir = mkdtempSync(path.join(tmpdir(), "identity-server-restart-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("persistence", () => {
  it("keeps identities and sessions across a restart on the same data dir", async () => {
    const first = await startTestServer({}, dir);
    const { token } = await registerNative(first, "durable@example.com");
    await first.stop();

    const second = await startTestServer({}, dir);
    try {
      const session = await second.native().toSession({ xSessionToken: token });
      expect(session.identity?.traits).toEqual({ email: "durable@example.com" });
      const api = second.native();
      const flow = await api.createNativeLoginFlow();
      const login = await api.updateLoginFlow({
        flow: flow.id,
        updateLoginFlowBody: {
          method: "password",
          identifier: "durable@example.com",
          password: strongPassword,
        },
      });
      expect(login.session.identity?.id).toBe(session.identity?.id);
    } finally {
      await second.stop();
    }
  });

  it("runs each migration once, in WAL mode, with a token hash instead of the token", async () => {
    const own = mkdtempSync(path.join(tmpdir(), "identity-server-migrate-"));
    try {
      const first = await startTestServer({}, own);
      const { token } = await registerNative(first, "hashed@example.com");
      await first.stop();
      await (await startTestServer({}, own)).stop();

      const db = new DatabaseSync(path.join(own, databaseFileName));
      try {
        expect(db.prepare("SELECT version FROM schema_migrations").all()).toHaveLength(
          migrations.length,
        );
        expect(db.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
        const rows = db.prepare("SELECT token_hash FROM sessions").all() as {
          token_hash: string;
        }[];
        expect(rows).toHaveLength(1);
        expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
        expect(rows[0]?.token_hash).not.toContain(token);
      } finally {
        db.close();
      }
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it("writes nothing when a registration fails at the database", async () => {
    const ts = await startTestServer();
    try {
      await registerNative(ts, "first@example.com");
      const db = new DatabaseSync(path.join(ts.dataDir, databaseFileName));
      const count = () =>
        (
          db
            .prepare(
              "SELECT (SELECT count(*) FROM identities) + (SELECT count(*) FROM sessions) AS n",
            )
            .get() as {
            n: number;
          }
        ).n;
      const before = count();
      await expect(registerNative(ts, "FIRST@example.com")).rejects.toThrow();
      expect(count()).toBe(before);
      db.close();
    } finally {
      await ts.stop();
    }
  });
});
