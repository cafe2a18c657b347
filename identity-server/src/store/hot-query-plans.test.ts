import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Identity } from "../identity/identity.ts";
import type { Flow } from "../selfservice/flow.ts";
import { hashToken, randomToken } from "../session/session.ts";
import { databaseFileName, openDatabase } from "./database.ts";
import { findFlow, incrementSubmitCount, insertFlow, updateFlow } from "./flows.ts";
import { findIdentity, findIdentityByIdentifier } from "./identity-reads.ts";
import { insertIdentity } from "./identity-writes.ts";
import type { Database } from "./schema.ts";
import { findSessionByTokenHash, saveSession } from "./sessions.ts";

// The queries every whoami and every sign-in runs must find their rows through an index: a full
// scan costs nothing with a hundred rows and grows with every identity (issue 19's flat-cost target).

const dir = mkdtempSync(path.join(tmpdir(), "hot-query-plans-"));
let db: Kysely<Database>;
let seen: string[] = [];
beforeAll(async () => {
  db = await openDatabase(dir, { observeStatements: (text) => seen.push(text) });
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

/** The statements `work` ran (selects, updates, deletes: the ones that look rows up). */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  seen = [];
  await work();
  return [...new Set(seen)].filter((text) => /^\s*(select|update|delete)\b/i.test(text));
}

/**
 * The EXPLAIN QUERY PLAN lines of a statement that scan a table instead of searching an index (an
 * automatic index is a scan too: SQLite builds it from the whole table for the one statement).
 */
function scansOf(text: string): string[] {
  // Its own connection: the store's keeps prepared statements, and a prepared EXPLAIN keeps its plan.
  const file = new DatabaseSync(path.join(dir, databaseFileName), { readOnly: true });
  let details: string[];
  try {
    details = file
      .prepare(`explain query plan ${text}`)
      .all()
      .map((row) => String(row.detail));
  } finally {
    file.close();
  }
  expect(details.length).toBeGreaterThan(0);
  return details.filter((detail) => /^SCAN\b|AUTOMATIC/.test(detail));
}

const now = new Date();
const email = "plans@example.com";
const identity: Identity = {
  id: randomUUID(),
  schemaId: "default",
  state: "active",
  stateChangedAt: now,
  traits: { email },
  verifiableAddresses: [
    {
      id: randomUUID(),
      value: email,
      verified: false,
      via: "email",
      status: "pending",
      verifiedAt: undefined,
      createdAt: now,
      updatedAt: now,
    },
  ],
  recoveryAddresses: [
    { id: randomUUID(), value: email, via: "email", createdAt: now, updatedAt: now },
  ],
  credentials: [
    {
      id: randomUUID(),
      type: "password",
      identifiers: [email],
      config: { hashed_password: "$2a$04$imported" },
      version: 0,
      createdAt: now,
      updatedAt: now,
    },
  ],
  metadataPublic: null,
  metadataAdmin: null,
  createdAt: now,
  updatedAt: now,
};
const flow: Flow = {
  id: randomUUID(),
  kind: "login",
  type: "api",
  state: "choose_method",
  requestUrl: "http://127.0.0.1/self-service/login/api",
  returnTo: undefined,
  ui: { action: "", method: "POST", nodes: [] },
  csrfToken: "",
  internalContext: {},
  active: undefined,
  refresh: false,
  requestedAal: "aal1",
  issuedAt: now,
  expiresAt: new Date(now.getTime() + 3_600_000),
  createdAt: now,
  updatedAt: now,
  submitCount: 0,
  identityId: undefined,
  locale: "en",
};
const token = randomToken("ory_st_");

describe("hot query plans", () => {
  it("whoami and a password sign-in look every row up through an index", async () => {
    await db.transaction().execute((trx) => insertIdentity(trx, identity));
    await insertFlow(db, flow);
    const hot = await statementsOf(async () => {
      // A sign-in: the flow by id, the identifier, the identity, the flow saved, a new session.
      await findFlow(db, "login", flow.id);
      await incrementSubmitCount(db, flow.id);
      const found = await findIdentityByIdentifier(db, "password", email);
      expect(found?.identity.id).toBe(identity.id);
      await updateFlow(db, flow, now);
      await saveSession(
        db,
        {
          id: randomUUID(),
          identityId: identity.id,
          active: true,
          aal: "aal1",
          authenticationMethods: [{ method: "password", aal: "aal1", completedAt: now }],
          issuedAt: now,
          authenticatedAt: now,
          expiresAt: new Date(now.getTime() + 3_600_000),
          devices: [{ id: randomUUID(), ipAddress: "127.0.0.1", userAgent: "t", location: "" }],
          createdAt: now,
          updatedAt: now,
        },
        hashToken(token),
      );
      // whoami: the session by token, its identity without identifiers.
      const session = await findSessionByTokenHash(db, hashToken(token));
      expect(session?.devices).toHaveLength(1);
      const read = await findIdentity(db, identity.id, { credentialIdentifiers: false });
      expect(read?.verifiableAddresses[0]?.value).toBe(email);
    });
    expect(hot.length).toBeGreaterThanOrEqual(7);
    for (const text of hot) expect({ text, scans: scansOf(text) }).toEqual({ text, scans: [] });
  });

  it("a sign-in looks its identifier and identity up in one statement", async () => {
    seen = [];
    const found = await findIdentityByIdentifier(db, "password", email);
    expect(found?.identity.id).toBe(identity.id);
    expect(found?.credential.type).toBe("password");
    expect(seen).toHaveLength(1);
    expect(await findIdentityByIdentifier(db, "password", "nobody@example.com")).toBeUndefined();
  });

  it("reports a scan when an index the lookups need is missing", async () => {
    const hot = await statementsOf(() => findSessionByTokenHash(db, hashToken(token)));
    await sql`drop index session_devices_session_id`.execute(db);
    try {
      const scans = hot.flatMap(scansOf);
      expect(scans.some((detail) => detail.includes("session_devices"))).toBe(true);
    } finally {
      await sql`create index session_devices_session_id on session_devices (session_id)`.execute(
        db,
      );
    }
  });
});
