import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Identity } from "../identity/identity.ts";
import { openDatabase } from "./database.ts";
import { insertIdentities } from "./identity-batch-insert.ts";
import { findIdentityByIdentifier } from "./identity-reads.ts";
import { DuplicateIdentityError, insertIdentity } from "./identity-writes.ts";
import type { Database } from "./schema.ts";

const dir = mkdtempSync(path.join(tmpdir(), "identity-batch-insert-"));
let db: Kysely<Database>;
beforeAll(async () => {
  db = await openDatabase(dir);
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

function identityOf(email: string): Identity {
  const now = new Date();
  return {
    id: randomUUID(),
    schemaId: "default",
    state: "active",
    stateChangedAt: now,
    traits: { email },
    verifiableAddresses: [],
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
}

describe("insertIdentities", () => {
  it("commits a batch in a few transactions and rolls back only the clashing identities", async () => {
    await db.transaction().execute((trx) => insertIdentity(trx, identityOf("taken@batch.example")));
    const batch = Array.from({ length: 150 }, (_, i) => identityOf(`user-${i}@batch.example`));
    batch[10] = identityOf("taken@batch.example"); // clashes with a stored identity
    batch[120] = identityOf("user-5@batch.example"); // clashes with an earlier one of the batch
    let transactions = 0;
    const transaction = db.transaction.bind(db);
    db.transaction = () => {
      transactions++;
      return transaction();
    };

    let outcomes: Awaited<ReturnType<typeof insertIdentities>>;
    try {
      outcomes = await insertIdentities(db, batch);
    } finally {
      db.transaction = transaction;
    }

    // One commit (one disk flush) per 100 identities, not one per identity.
    expect(transactions).toBe(2);
    expect(outcomes).toHaveLength(150);
    expect(outcomes[10]).toBeInstanceOf(DuplicateIdentityError);
    expect(outcomes[120]).toBeInstanceOf(DuplicateIdentityError);
    expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(148);
    for (const i of [0, 9, 11, 119, 121, 149]) {
      const found = await findIdentityByIdentifier(db, "password", `user-${i}@batch.example`);
      expect(found?.identity.id).toBe(batch[i]?.id);
    }
    // The rolled-back clash left no half-written rows (its credential identifier included).
    const stored = await findIdentityByIdentifier(db, "password", "user-5@batch.example");
    expect(stored?.identity.id).toBe(batch[5]?.id);
    const rows = await db
      .selectFrom("identity_credentials")
      .select("id")
      .where("identity_id", "in", [batch[10]?.id ?? "", batch[120]?.id ?? ""])
      .execute();
    expect(rows).toEqual([]);
  });
});
