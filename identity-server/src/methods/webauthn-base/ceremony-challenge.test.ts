import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kysely } from "kysely";
import type { Flow } from "../../selfservice/flow.ts";
import { openDatabase } from "../../store/database.ts";
import { findFlow, insertFlow, updateFlow } from "../../store/flows.ts";
import type { Database } from "../../store/schema.ts";
import { ceremonyKey, consumeCeremony, storeCeremony } from "./ceremony-challenge.ts";
import { WebAuthnRefused } from "./webauthn-refused.ts";

let dir: string;
let db: Kysely<Database>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "webauthn-challenge-"));
  db = await openDatabase(dir);
});

afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

function flow(id: string, kind: Flow["kind"] = "login"): Flow {
  const now = new Date();
  return {
    id,
    kind,
    type: "browser",
    state: "choose_method",
    requestUrl: "http://localhost/self-service/login/browser",
    returnTo: undefined,
    ui: { action: "", method: "POST", nodes: [] },
    csrfToken: "",
    internalContext: {},
    active: undefined,
    refresh: false,
    requestedAal: "aal1",
    issuedAt: now,
    expiresAt: new Date(now.getTime() + 60_000),
    createdAt: now,
    updatedAt: now,
    submitCount: 0,
    identityId: undefined,
    locale: "en",
  };
}

const key = ceremonyKey("passkey");

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebAuthnRefused);
  return (error as WebAuthnRefused).reason;
}

describe("ceremony challenges", () => {
  it("are taken once: a second taker of the stored flow is refused", async () => {
    const stored = flow("8f1a1f0e-0000-4000-8000-000000000001");
    storeCeremony(stored, key, { challenge: "abc" });
    await insertFlow(db, stored);
    // Two requests that loaded the flow before either took the challenge.
    const first = await findFlow(db, "login", stored.id);
    const second = await findFlow(db, "login", stored.id);
    if (!first || !second) throw new Error("flow not stored");
    expect(await consumeCeremony(db, first, key)).toEqual({ challenge: "abc", flow_id: stored.id });
    expect(first.internalContext[key]).toBeUndefined();
    expect(await reasonOf(consumeCeremony(db, second, key))).toMatch(/already used/);
    expect((await findFlow(db, "login", stored.id))?.internalContext[key]).toBeUndefined();
    expect(await reasonOf(consumeCeremony(db, first, key))).toMatch(/no challenge/);
  });

  it("are bound to the flow they were issued for", async () => {
    const other = flow("8f1a1f0e-0000-4000-8000-000000000002");
    other.internalContext[key] = {
      challenge: "abc",
      flow_id: "8f1a1f0e-0000-4000-8000-000000000003",
    };
    await insertFlow(db, other);
    expect(await reasonOf(consumeCeremony(db, other, key))).toMatch(/another flow/);
  });

  // The attack: a wrong-password post reads the flow, the passkey answer takes the challenge, the
  // slow post then saves its copy of the flow; the spent challenge must not come back.
  const kinds = ["login", "registration", "settings"] as const;
  const strategies = ["passkey", "webauthn"] as const;
  let n = 10;
  for (const kind of kinds) {
    for (const strategy of strategies) {
      it(`stay spent when a ${kind} flow read earlier is saved (${strategy})`, async () => {
        const k = ceremonyKey(strategy);
        const stored = flow(`8f1a1f0e-0000-4000-8000-0000000000${n++}`, kind);
        storeCeremony(stored, k, { challenge: "spent" });
        stored.internalContext.other = "kept";
        await insertFlow(db, stored);
        const slow = await findFlow(db, kind, stored.id);
        const answer = await findFlow(db, kind, stored.id);
        if (!slow || !answer) throw new Error("flow not stored");
        await consumeCeremony(db, answer, k);
        slow.internalContext.other = "changed";
        await updateFlow(db, slow, new Date());
        const after = await findFlow(db, kind, stored.id);
        expect(after?.internalContext[k]).toBeUndefined();
        expect(after?.internalContext.other).toBe("changed");
        expect(await reasonOf(consumeCeremony(db, slow, k))).toMatch(/already used/);

        // A challenge the saving request issued itself is written, once.
        storeCeremony(slow, k, { challenge: "fresh" });
        await updateFlow(db, slow, new Date());
        const again = await findFlow(db, kind, stored.id);
        if (!again) throw new Error("flow not stored");
        expect(await consumeCeremony(db, again, k)).toEqual({
          challenge: "fresh",
          flow_id: stored.id,
        });
        await updateFlow(db, slow, new Date());
        expect((await findFlow(db, kind, stored.id))?.internalContext[k]).toBeUndefined();
      });
    }
  }
});
