// The whoami cache (whoami-cache.ts) must never answer from an entry the store has moved past:
// every change below is visible to the very next whoami after a cached answer.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  databaseFileName,
  openDatabase,
  tableWrittenBy,
  writeCounts,
  WriteCounts,
} from "../store/database.ts";
import { call, type TestResponse } from "../test-support/http-client.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import { linkTotp, passwordSignIn } from "../test-support/second-factor-helpers.ts";
import { startTestServer, type TestServer } from "../test-support/test-server.ts";
import { findIdentity } from "../store/identities.ts";
import { findSessionByTokenHash } from "../store/sessions.ts";
import { hashToken, sessionJson } from "./session.ts";
import { defaultMaxBytes, entryBytes, WhoamiCache } from "./whoami-cache.ts";

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer(
    { IDENTITY_SESSION_TOKENIZER_TEMPLATES: JSON.stringify({ short: { ttl: "10m" } }) },
    undefined,
    { freezeClock: true },
  );
});
afterAll(async () => {
  await ts.stop();
});

const whoami = (token: string, query = ""): Promise<TestResponse> =>
  call(`${ts.publicUrl}/sessions/whoami${query}`, { headers: { "x-session-token": token } });

/** Two whoami calls, the second one answered from the cache; returns the session's JSON. */
async function cached(token: string): Promise<Record<string, unknown>> {
  const first = await whoami(token);
  expect(first.status).toBe(200);
  const second = await whoami(token);
  expect(second.status).toBe(200);
  expect(second.body).toEqual(first.body);
  return second.body as Record<string, unknown>;
}

async function admin(method: string, url: string, body?: unknown): Promise<TestResponse> {
  return call(`${ts.adminUrl}${url}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
}

describe("whoami cache", () => {
  it("answers a cached session byte for byte as the first time, headers included", async () => {
    const { token, identityId } = await registerNative(ts, "cache-same@example.com");
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${ts.publicUrl}/sessions/whoami`, {
        headers: { "x-session-token": token },
      });
      answers.push({
        status: response.status,
        type: response.headers.get("content-type"),
        identity: response.headers.get("x-kratos-authenticated-identity-id"),
        cacheControl: response.headers.get("cache-control"),
        correlation: response.headers.get("x-correlation-id") !== null,
        body: await response.text(),
      });
    }
    expect(answers[0]).toMatchObject({
      status: 200,
      type: "application/json; charset=utf-8",
      identity: identityId,
      correlation: true,
    });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it("answers uncached and cached with the bytes of JSON.stringify(sessionJson(…)) of the store", async () => {
    const { token, identityId } = await registerNative(ts, "cache-bytes@example.com");
    const patched = await admin("PATCH", `/admin/identities/${identityId}`, [
      { op: "add", path: "/metadata_public", value: { plan: 'gold \u2028 ünï "q"', n: [1, 2.5] } },
    ]);
    expect(patched.status).toBe(200);
    // Read the stored session and identity as the old whoami did, and write them the old way.
    const db = await openDatabase(ts.dataDir, { migrate: false });
    let expected: string;
    try {
      const session = await findSessionByTokenHash(db, hashToken(token));
      const identity = session && (await findIdentity(db, session.identityId));
      if (!session || !identity) throw new Error("the session was not stored");
      // The server's IDENTITY_PUBLIC_BASE_URL is the default here.
      const publicBaseUrl = "http://localhost:3000/api/kratos";
      expected = JSON.stringify(sessionJson(session, identity, publicBaseUrl, ts.now()));
    } finally {
      await db.destroy();
    }
    const uncached = await whoami(token);
    const cachedAnswer = await whoami(token);
    expect(uncached.status).toBe(200);
    expect(uncached.text).toBe(expected);
    expect(cachedAnswer.text).toBe(expected);
  });

  it("refuses a session right after its logout", async () => {
    const { token } = await registerNative(ts, "cache-logout@example.com");
    await cached(token);
    const logout = await call(`${ts.publicUrl}/self-service/logout/api`, {
      method: "DELETE",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ session_token: token }),
    });
    expect(logout.status).toBe(204);
    expect((await whoami(token)).status).toBe(401);
  });

  it("refuses a session revoked by the admin API and shows an extension at once", async () => {
    const { token } = await registerNative(ts, "cache-admin@example.com");
    const session = await cached(token);
    const id = session.id as string;

    ts.advanceClock(3_600_000);
    const extended = await admin("PATCH", `/admin/sessions/${id}/extend`);
    expect(extended.status).toBe(200);
    const after = (await whoami(token)).body as { expires_at: string };
    expect(after.expires_at).toBe((extended.body as { expires_at: string }).expires_at);
    expect(after.expires_at).not.toBe(session.expires_at);

    await cached(token);
    expect((await admin("DELETE", `/admin/sessions/${id}`)).status).toBe(204);
    expect((await whoami(token)).status).toBe(401);
  });

  it("refuses every session of an identity whose sessions the admin deleted", async () => {
    const { token, identityId } = await registerNative(ts, "cache-admin-all@example.com");
    await cached(token);
    expect((await admin("DELETE", `/admin/identities/${identityId}/sessions`)).status).toBe(204);
    expect((await whoami(token)).status).toBe(401);
  });

  it("shows changed traits, refuses an inactive or deleted identity", async () => {
    const { token, identityId } = await registerNative(ts, "cache-identity@example.com");
    await cached(token);

    const patched = await admin("PATCH", `/admin/identities/${identityId}`, [
      { op: "replace", path: "/traits/email", value: "cache-identity-2@example.com" },
    ]);
    expect(patched.status).toBe(200);
    const renamed = (await whoami(token)).body as { identity: { traits: { email: string } } };
    expect(renamed.identity.traits.email).toBe("cache-identity-2@example.com");

    await cached(token);
    const inactive = await admin("PATCH", `/admin/identities/${identityId}`, [
      { op: "replace", path: "/state", value: "inactive" },
    ]);
    expect(inactive.status).toBe(200);
    expect((await whoami(token)).status).toBe(401);
    const active = await admin("PATCH", `/admin/identities/${identityId}`, [
      { op: "replace", path: "/state", value: "active" },
    ]);
    expect(active.status).toBe(200);

    await cached(token);
    expect((await admin("DELETE", `/admin/identities/${identityId}`)).status).toBe(204);
    expect((await whoami(token)).status).toBe(401);
  });

  it("asks an aal1 session for the second factor as soon as the identity links one", async () => {
    const email = "cache-totp@example.com";
    const { token, identityId } = await registerNative(ts, email);
    await cached(token);

    // Another session of the same identity links an authenticator app.
    const { browser } = await passwordSignIn(ts, email);
    await linkTotp(ts, browser);
    const refused = await whoami(token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { id: "session_aal2_required" } });

    // The admin removes it again: the aal1 session is enough once more.
    const removed = await admin("DELETE", `/admin/identities/${identityId}/credentials/totp`);
    expect(removed.status).toBe(204);
    expect((await whoami(token)).status).toBe(200);
  });

  it("refuses a session the moment the clock passes expires_at", async () => {
    const { token } = await registerNative(ts, "cache-expiry@example.com");
    const session = await cached(token);
    const left = Date.parse(session.expires_at as string) - ts.now().getTime();
    ts.advanceClock(left - 1);
    expect((await whoami(token)).status).toBe(200);
    ts.advanceClock(1);
    expect((await whoami(token)).status).toBe(401);
  });

  it("refuses a session another process revoked in the database file", async () => {
    const { token } = await registerNative(ts, "cache-other-process@example.com");
    const session = await cached(token);
    const other = new DatabaseSync(path.join(ts.dataDir, databaseFileName));
    try {
      other.exec("PRAGMA busy_timeout = 5000");
      other.prepare("UPDATE sessions SET active = 0 WHERE id = ?").run(session.id as string);
    } finally {
      other.close();
    }
    expect((await whoami(token)).status).toBe(401);
  });

  it("is bypassed by tokenize_as", async () => {
    const { token } = await registerNative(ts, "cache-tokenize@example.com");
    await cached(token);
    const tokenized = await whoami(token, "?tokenize_as=short");
    expect(tokenized.status).toBe(200);
    expect(typeof (tokenized.body as { tokenized?: unknown }).tokenized).toBe("string");
    expect((await whoami(token)).body).not.toHaveProperty("tokenized");
  });
});

describe("store write counts", () => {
  it("tells which table a statement writes", () => {
    expect(tableWrittenBy('update "sessions" set "active" = ? where "id" = ?')).toBe("sessions");
    expect(tableWrittenBy('insert into "identities" ("id") values (?)')).toBe("identities");
    expect(tableWrittenBy('delete from "selfservice_flows" where "id" = ?')).toBe(
      "selfservice_flows",
    );
    expect(tableWrittenBy('select * from "sessions" where "token_hash" = ?')).toBeUndefined();
    expect(tableWrittenBy("begin")).toBeUndefined();
    expect(tableWrittenBy("commit")).toBeUndefined();
    // Undoes writes a reader may have seen on the shared connection.
    expect(tableWrittenBy("rollback")).toBe(WriteCounts.anyTable);
    expect(tableWrittenBy('create table "x" ("id" text)')).toBe(WriteCounts.anyTable);
    expect(tableWrittenBy('with "a" as (select 1) delete from "sessions"')).toBe(
      WriteCounts.anyTable,
    );
  });

  it("moves the cache's stamp on a related write and a rollback, not on a flow write", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "whoami-cache-"));
    const db = await openDatabase(dir);
    try {
      const cache = new WhoamiCache(db);
      const entry = { body: "{}", identityId: "i", expiresAtMs: Date.now() + 60_000 };
      const now = new Date();
      cache.set("hash", cache.stamp(), entry);
      expect(cache.get("hash", now)).toBe(entry);

      await sql`delete from selfservice_flows where id = 'none'`.execute(db);
      expect(cache.get("hash", now)).toBe(entry);

      await sql`delete from sessions where id = 'none'`.execute(db);
      expect(cache.get("hash", now)).toBeUndefined();
      expect(writeCounts(db).writesTo("sessions")).toBe(1);
      expect(writeCounts(db).writesTo("selfservice_flows")).toBe(1);

      cache.set("hash", cache.stamp(), entry);
      await db
        .transaction()
        .execute(async (trx) => {
          await sql`delete from selfservice_flows where id = 'none'`.execute(trx);
          throw new Error("roll back");
        })
        .catch(() => undefined);
      expect(cache.get("hash", now)).toBeUndefined();

      // An answer read before a write is not kept.
      const readAt = cache.stamp();
      await sql`update identities set state = 'active' where id = 'none'`.execute(db);
      cache.set("hash", readAt, entry);
      expect(cache.get("hash", now)).toBeUndefined();
      expect(cache.get("hash", new Date(entry.expiresAtMs))).toBeUndefined();

      // Nor is one read before another process committed (set keeps it; get never answers it).
      const beforeOther = cache.stamp();
      const other = new DatabaseSync(path.join(dir, databaseFileName));
      try {
        other.exec("create table other_process_write (x integer)");
      } finally {
        other.close();
      }
      cache.set("hash", beforeOther, entry);
      expect(cache.get("hash", now)).toBeUndefined();
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps answers up to its byte budget, oldest dropped first", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "whoami-cache-"));
    const db = await openDatabase(dir);
    try {
      const entry = { body: "x".repeat(1000), identityId: "i", expiresAtMs: Date.now() + 60_000 };
      const cache = new WhoamiCache(db, 2 * entryBytes(entry));
      for (const key of ["a", "b", "c"]) cache.set(key, cache.stamp(), entry);
      expect(cache.size).toBe(2);
      expect(cache.bytes).toBe(2 * entryBytes(entry));
      expect(cache.get("a", new Date())).toBeUndefined();
      expect(cache.get("b", new Date())).toBe(entry);
      expect(cache.get("c", new Date())).toBe(entry);
      // Replacing an entry frees its old bytes; one larger than the whole budget is not kept.
      cache.set("c", cache.stamp(), entry);
      expect(cache.bytes).toBe(2 * entryBytes(entry));
      const huge = { ...entry, body: "x".repeat(3 * 1000) };
      cache.set("d", cache.stamp(), huge);
      expect(cache.get("d", new Date())).toBeUndefined();
      expect(cache.size).toBe(2);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("bounds large answers by bytes: a hundred 1 MB answers do not all stay", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "whoami-cache-"));
    const db = await openDatabase(dir);
    try {
      const cache = new WhoamiCache(db);
      const entry = {
        body: "x".repeat(1 << 20),
        identityId: "i",
        expiresAtMs: Date.now() + 60_000,
      };
      for (let i = 0; i < 100; i++) cache.set(`k${i}`, cache.stamp(), entry);
      expect(cache.size).toBe(Math.floor(defaultMaxBytes / entryBytes(entry)));
      expect(cache.size).toBeLessThan(10);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("counts a body with characters beyond Latin-1 at two bytes a character", () => {
    const latin = entryBytes({ body: "é".repeat(100), identityId: "i", expiresAtMs: 0 });
    const wide = entryBytes({ body: "€".repeat(100), identityId: "i", expiresAtMs: 0 });
    expect(wide - latin).toBe(100);
  });
});
