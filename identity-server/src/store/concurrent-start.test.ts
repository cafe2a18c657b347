import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { oauth2Migrations } from "../oauth2/store/oauth2-migrations.ts";
import { killChildServers, startChildServer } from "../test-support/child-server.ts";
import { databaseFileName } from "./database.ts";
import { migrations } from "./migrations.ts";

// Processes starting at the same moment on one new data dir: all must come up (the others wait
// for the first's migrations and keys under the database's write lock), every migration is
// recorded once, and all use the one generated secret, OAuth2 key set and session tokenizer key.

const root = mkdtempSync(path.join(tmpdir(), "concurrent-start-"));
afterAll(() => {
  killChildServers();
  rmSync(root, { recursive: true, force: true });
});

const env = {
  IDENTITY_OAUTH2_ENABLED: "true",
  IDENTITY_OAUTH2_PUBLIC_PORT: "0",
  IDENTITY_OAUTH2_ADMIN_PORT: "0",
  IDENTITY_SESSION_TOKENIZER_TEMPLATES: JSON.stringify({ api: { ttl: "1m" } }),
};

const firstStartScript = fileURLToPath(
  new URL("../test-support/first-start-child.ts", import.meta.url),
);

interface FirstStartResult {
  secret: string;
  signingKids: string[];
  tokenizerKids: string[];
}

/** Starts `first-start-child.ts` and resolves once its modules are loaded, with a release. */
async function readyChild(dataDir: string) {
  const child = spawn(process.execPath, [firstStartScript, dataDir], {
    env: { PATH: process.env.PATH },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const lines = createInterface({ input: child.stdout });
  const output: string[] = [];
  const ready = new Promise<void>((resolve) =>
    lines.on("line", (line) => (line === "ready" ? resolve() : output.push(line))),
  );
  await Promise.race([ready, exited.then(() => Promise.reject(new Error(stderr)))]);
  return {
    release: async (): Promise<FirstStartResult> => {
      child.stdin.end("go\n");
      const code = await exited;
      if (code !== 0) throw new Error(`exit ${String(code)}: ${stderr}`);
      return JSON.parse(output.join("")) as FirstStartResult;
    },
  };
}

function count(db: DatabaseSync, query: string): number {
  return Number((db.prepare(query).get() as { n: number }).n);
}

async function tokenizerKids(publicUrl: string): Promise<string[]> {
  const response = await fetch(`${publicUrl}/.well-known/ory/session-tokenizer/jwks.json`);
  const body = (await response.json()) as { keys: { kid: string }[] };
  return body.keys.map((key) => key.kid);
}

function expectMigratedOnceWithOneKeySet(dataDir: string): void {
  const db = new DatabaseSync(path.join(dataDir, databaseFileName), { readOnly: true });
  try {
    expect(count(db, "select count(*) as n from schema_migrations")).toBe(migrations.length);
    expect(count(db, "select count(*) as n from oauth2_migrations")).toBe(oauth2Migrations.length);
    // One RS256 and one ES256 key: another process generating its own would make four or more.
    expect(count(db, "select count(*) as n from oauth2_signing_keys")).toBe(2);
  } finally {
    db.close();
  }
  expect(readFileSync(path.join(dataDir, "secret"), "utf8").trim()).toMatch(/^\S{32,}$/);
  // No temporary files left behind by a process that lost a race.
  expect(readdirSync(dataDir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
}

describe("processes starting on one new data dir", () => {
  it("four released at once end with one schema, one secret and one set of keys", async () => {
    const dataDir = path.join(root, "released");
    const children = await Promise.all([1, 2, 3, 4].map(() => readyChild(dataDir)));
    const results = await Promise.all(children.map((child) => child.release()));
    const [first, ...others] = results;
    expect(first?.signingKids).toHaveLength(2);
    expect(first?.tokenizerKids).toHaveLength(1);
    for (const other of others) expect(other).toEqual(first);
    expectMigratedOnceWithOneKeySet(dataDir);
  });

  it("two whole servers both start and share one set of keys", async () => {
    const dataDir = path.join(root, "data");
    const [first, second] = await Promise.all([
      startChildServer(dataDir, env),
      startChildServer(dataDir, env),
    ]);
    try {
      for (const server of [first, second]) {
        const ready = await fetch(`${server.adminUrl}/health/ready`);
        expect(ready.status).toBe(200);
      }
      const kids = await tokenizerKids(first.publicUrl);
      expect(kids).toHaveLength(1);
      expect(await tokenizerKids(second.publicUrl)).toEqual(kids);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }

    expectMigratedOnceWithOneKeySet(dataDir);
  });
});
