import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Flow } from "../selfservice/flow.ts";
import type { UiContainer } from "../ui/nodes.ts";
import { openDatabase } from "./database.ts";
import { findFlow, insertFlow, updateFlow } from "./flows.ts";
import type { Database } from "./schema.ts";

// A flow read from the store keeps its UI as the stored text until `ui` is used (stored-flow-ui.ts).
// The stored text below is spaced as JSON.stringify never spaces it, so a save shows whether the
// text was kept (spacing intact) or the UI serialised again.

const dir = mkdtempSync(path.join(tmpdir(), "stored-flow-ui-"));
let db: Kysely<Database>;
beforeAll(async () => {
  db = await openDatabase(dir);
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const ui: UiContainer = {
  action: "http://127.0.0.1/self-service/login?flow=x",
  method: "POST",
  nodes: [
    {
      type: "input",
      group: "default",
      attributes: { name: "identifier", type: "text", value: "", required: true },
      messages: [],
      meta: {},
    } as unknown as UiContainer["nodes"][number],
  ],
};
const spacedText = JSON.stringify(ui, null, 1);

function newLoginFlow(): Flow {
  const now = new Date();
  return {
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
}

/** A stored login flow whose `ui` column holds `spacedText`. */
async function storedFlow(): Promise<Flow> {
  const flow = newLoginFlow();
  await insertFlow(db, flow);
  await sql`update selfservice_flows set ui = ${spacedText} where id = ${flow.id}`.execute(db);
  const found = await findFlow(db, "login", flow.id);
  if (!found) throw new Error("flow not found");
  return found;
}

async function storedUiText(id: string): Promise<string> {
  const { rows } = await sql<{
    ui: string;
  }>`select ui from selfservice_flows where id = ${id}`.execute(db);
  return rows[0]?.ui ?? "";
}

describe("a stored flow's UI", () => {
  it("is saved again as the stored text while nothing used it (not parsed and re-serialised)", async () => {
    const flow = await storedFlow();
    flow.active = "password";
    await updateFlow(db, flow, new Date());
    expect(await storedUiText(flow.id)).toBe(spacedText);
  });

  it("reads as the stored UI, and a change made after reading is what is saved", async () => {
    const flow = await storedFlow();
    expect(flow.ui).toEqual(ui);
    flow.ui.nodes = [];
    await updateFlow(db, flow, new Date());
    expect(JSON.parse(await storedUiText(flow.id))).toEqual({ ...ui, nodes: [] });
  });

  it("saves a UI assigned without reading the old one", async () => {
    const flow = await storedFlow();
    flow.ui = { action: "http://127.0.0.1/other", method: "POST", nodes: [] };
    await updateFlow(db, flow, new Date());
    expect(JSON.parse(await storedUiText(flow.id))).toEqual(flow.ui);
  });

  it("is copied with the flow by object spread, as a plain property", async () => {
    const flow = await storedFlow();
    const copy = { ...flow, state: "success" };
    expect(Object.getOwnPropertyDescriptor(copy, "ui")?.value).toEqual(ui);
    copy.ui.nodes = [];
    await updateFlow(db, copy, new Date());
    expect(JSON.parse(await storedUiText(flow.id))).toEqual({ ...ui, nodes: [] });
  });
});
