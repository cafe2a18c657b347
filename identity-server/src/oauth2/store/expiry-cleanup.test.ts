import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../store/database.ts";
import type { Database } from "../../store/schema.ts";
import { deleteExpired } from "./expiry-cleanup.ts";
import { migrateOAuth2, oauth2Migrations } from "./oauth2-migrations.ts";
import type { OAuth2Db } from "./oauth2-tables.ts";
import { payloadAdapterFactory } from "./payload-adapter.ts";

let dir: string;
let identityDb: Kysely<Database>;
let db: OAuth2Db;
const start = new Date("2030-01-01T00:00:00.000Z");

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "oauth2-cleanup-"));
  identityDb = await openDatabase(dir);
  db = identityDb as unknown as OAuth2Db;
  await migrateOAuth2(db, () => start);
});

afterAll(async () => {
  await identityDb.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("OAuth2 migrations", () => {
  it("run once, in their own table", async () => {
    expect(await migrateOAuth2(db, () => start)).toEqual([]);
    const versions = await db.selectFrom("oauth2_migrations").select("version").execute();
    expect(versions.map((row) => row.version)).toEqual(oauth2Migrations.map((m) => m.version));
  });
});

describe("the storage adapter and its cleanup", () => {
  it("keeps rows until they expire, then removes them", async () => {
    const adapter = payloadAdapterFactory(db, () => start)("AccessToken");
    await adapter.upsert("short", { grantId: "g1", clientId: "c1" }, 60);
    await adapter.upsert("long", { grantId: "g1", clientId: "c1" }, 3600);
    await db
      .insertInto("oauth2_seen_jtis")
      .values({ id: "jti-1", expires_at: new Date(start.getTime() + 30_000).toISOString() })
      .execute();

    expect(await deleteExpired(db, new Date(start.getTime() + 29_000))).toBe(0);
    expect(await deleteExpired(db, new Date(start.getTime() + 61_000))).toBe(2);
    expect(await adapter.find("short")).toBeUndefined();
    expect(await adapter.find("long")).toMatchObject({ grantId: "g1" });

    await adapter.revokeByGrantId("g1");
    expect(await adapter.find("long")).toBeUndefined();
  });

  it("marks consumed rows, and hides used interactions from the provider", async () => {
    const tokens = payloadAdapterFactory(db, () => start)("RefreshToken");
    await tokens.upsert("rt", { grantId: "g2" }, 3600);
    await tokens.consume("rt");
    expect(await tokens.find("rt")).toMatchObject({ consumed: expect.any(Number) as unknown });

    const interactions = payloadAdapterFactory(db, () => start)("Interaction");
    await interactions.upsert("uid-1", { uid: "uid-1" }, 3600);
    await interactions.destroy("uid-1");
    expect(await interactions.find("uid-1")).toBeUndefined();
    const row = await db
      .selectFrom("oauth2_payloads")
      .select("consumed_at")
      .where("model", "=", "Interaction")
      .where("id", "=", "uid-1")
      .executeTakeFirst();
    expect(row?.consumed_at).toBe(start.toISOString());
  });
});

describe("skipped consent sessions", () => {
  it("go with their grant; remembered ones stay", async () => {
    const grants = payloadAdapterFactory(db, () => start)("Grant");
    await grants.upsert("grant-live", { accountId: "u", clientId: "c" }, 3600);
    const session = (id: string, grantId: string, skip: number) => ({
      consent_request_id: id,
      consent_challenge: "",
      grant_id: grantId,
      subject: "u",
      client_id: "c",
      login_challenge: null,
      login_session_id: null,
      skip,
      grant_scope: "[]",
      grant_audience: "[]",
      remember: skip === 1 ? 0 : 1,
      remember_for: 0,
      session_access_token: "{}",
      session_id_token: "{}",
      context: "{}",
      requested_scope: "[]",
      requested_audience: "[]",
      request_url: "",
      acr: null,
      amr: "[]",
      oidc_context: "{}",
      handled_at: start.toISOString(),
      remember_until: null,
    });
    await db
      .insertInto("oauth2_consent_sessions")
      .values([
        session("remembered-gone", "grant-gone", 0),
        session("skipped-gone", "grant-gone-2", 1),
        session("skipped-live", "grant-live", 1),
      ])
      .execute();
    expect(await deleteExpired(db, start)).toBe(1);
    const left = await db
      .selectFrom("oauth2_consent_sessions")
      .select("consent_request_id")
      .orderBy("consent_request_id")
      .execute();
    expect(left.map((row) => row.consent_request_id)).toEqual(["remembered-gone", "skipped-live"]);
  });
});
