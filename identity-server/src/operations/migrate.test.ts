import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { oauth2Migrations } from "../oauth2/store/oauth2-migrations.ts";
import { migrations } from "../store/migrations.ts";
import { killChildServers, startChildServer } from "../test-support/child-server.ts";
import { runOperationsCommand } from "./operations-command-runner.ts";

// `npm run migrate` applies both schemas' pending migrations and exits; with
// IDENTITY_MIGRATE_ON_START=false a server refuses a database that still needs them.

const root = mkdtempSync(path.join(tmpdir(), "migrate-"));
afterAll(() => {
  killChildServers();
  rmSync(root, { recursive: true, force: true });
});

const all = (list: { version: number }[]) => list.map((m) => m.version).join(", ");

describe("npm run migrate", () => {
  it("applies the pending migrations once, then finds none", async () => {
    const dataDir = path.join(root, "fresh");
    const first = await runOperationsCommand(["migrate"], { IDENTITY_DATA_DIR: dataDir });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`identity schema applied ${all(migrations)}`);
    expect(first.stdout).toContain(`OAuth2 schema applied ${all(oauth2Migrations)}`);

    const again = await runOperationsCommand(["migrate"], { IDENTITY_DATA_DIR: dataDir });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("identity schema none pending; OAuth2 schema none pending");
  });

  it("refuses arguments", async () => {
    const result = await runOperationsCommand(["migrate", "extra"], {
      IDENTITY_DATA_DIR: path.join(root, "unused"),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("migrate takes no arguments");
  });
});

describe("IDENTITY_MIGRATE_ON_START=false", () => {
  const env = {
    IDENTITY_MIGRATE_ON_START: "false",
    IDENTITY_OAUTH2_ENABLED: "true",
    IDENTITY_OAUTH2_PUBLIC_PORT: "0",
    IDENTITY_OAUTH2_ADMIN_PORT: "0",
  };

  it("refuses to start on a database that needs migrations, and starts once they are applied", async () => {
    const dataDir = path.join(root, "explicit");
    await expect(startChildServer(dataDir, env)).rejects.toThrow(
      /needs migrations \(identity schema 1, .*; OAuth2 schema 1, .*\) and IDENTITY_MIGRATE_ON_START is false: run npm run migrate/,
    );
    const migrated = await runOperationsCommand(["migrate"], { IDENTITY_DATA_DIR: dataDir });
    expect(migrated.code).toBe(0);
    const server = await startChildServer(dataDir, env);
    try {
      expect((await fetch(`${server.adminUrl}/health/ready`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
