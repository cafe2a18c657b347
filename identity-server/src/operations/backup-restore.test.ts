import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  killChildServers,
  startChildServer,
  type ChildServer,
} from "../test-support/child-server.ts";
import { openDatabase } from "../store/database.ts";
import { runOperationsCommand } from "./operations-command-runner.ts";

// npm run backup while a real server (its own process) keeps creating identities, then npm run
// restore into a new data dir, a server started on it, and a password login (the API flow) of an
// identity created before the backup. OAuth2 is on: its signing keys are sealed in the database
// with the data dir's generated secret, so the restored server only starts if both came back.

const password = "backup-Restore-battery-4-staple";
const oauth2Env = {
  IDENTITY_OAUTH2_ENABLED: "true",
  IDENTITY_OAUTH2_PUBLIC_PORT: "0",
  IDENTITY_OAUTH2_ADMIN_PORT: "0",
};
const root = mkdtempSync(path.join(tmpdir(), "backup-restore-"));
afterAll(() => {
  killChildServers();
  rmSync(root, { recursive: true, force: true });
});

async function createIdentity(server: ChildServer, email: string): Promise<number> {
  const response = await fetch(`${server.adminUrl}/admin/identities`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      schema_id: "default",
      traits: { email },
      credentials: { password: { config: { password } } },
    }),
  });
  await response.arrayBuffer();
  return response.status;
}

async function passwordLogin(server: ChildServer, email: string) {
  const flow = (await (await fetch(`${server.publicUrl}/self-service/login/api`)).json()) as {
    id: string;
  };
  const response = await fetch(`${server.publicUrl}/self-service/login?flow=${flow.id}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ method: "password", identifier: email, password }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("npm run backup / npm run restore", () => {
  it("backs up a server under write load and restores a data dir a new server signs in from", async () => {
    const liveDir = path.join(root, "live");
    const restoredDir = path.join(root, "restored");
    const backupFile = path.join(root, "identity-backup.sqlite");
    const live = await startChildServer(liveDir, oauth2Env);

    expect(await createIdentity(live, "before-backup@example.com")).toBe(201);

    // Four writers creating identities until told to stop; `untilCreated` resolves on the count.
    let created = 0;
    const failures: number[] = [];
    let writing = true;
    let waiter: { count: number; resolve: () => void } | undefined;
    const untilCreated = (count: number) =>
      new Promise<void>((resolve) => {
        if (created >= count) resolve();
        else waiter = { count, resolve };
      });
    const writers = Array.from({ length: 4 }, async (_, writer) => {
      for (let n = 0; writing; n++) {
        const status = await createIdentity(live, `load-${writer}-${n}@example.com`);
        if (status === 201) created++;
        else failures.push(status);
        if (waiter && (created >= waiter.count || failures.length > 0)) waiter.resolve();
      }
    });
    await untilCreated(8);
    const createdBeforeBackup = created;
    const backedUp = await runOperationsCommand(["backup", backupFile], {
      IDENTITY_DATA_DIR: liveDir,
    });
    expect(backedUp.stderr).toBe("");
    expect(backedUp.code).toBe(0);
    expect(backedUp.stdout).toMatch(/^Backed up .* \(\d+ bytes, [\d.]+ s; with secret\)\.\n$/);
    // The writers went on during and after the backup, without a single failure.
    await untilCreated(createdBeforeBackup + 8);
    writing = false;
    await Promise.all(writers);
    expect(failures).toEqual([]);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);

    // A data dir a server holds is never restored into, not even with --force.
    const intoLive = await runOperationsCommand(["restore", backupFile, "--force"], {
      IDENTITY_DATA_DIR: liveDir,
    });
    expect(intoLive.code).toBe(1);
    expect(intoLive.stderr).toBe(
      `A running identity server holds ${liveDir} (IDENTITY_DATA_DIR); stop it before restoring.\n`,
    );
    await live.stop();

    const restored = await runOperationsCommand(["restore", backupFile], {
      IDENTITY_DATA_DIR: restoredDir,
    });
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(readFileSync(path.join(restoredDir, "secret"), "utf8")).toBe(
      readFileSync(path.join(liveDir, "secret"), "utf8"),
    );
    expect(statSync(path.join(restoredDir, "secret")).mode & 0o777).toBe(0o600);

    // A second restore over data needs --force.
    const again = await runOperationsCommand(["restore", backupFile], {
      IDENTITY_DATA_DIR: restoredDir,
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `${restoredDir} (IDENTITY_DATA_DIR) already holds data (identity.sqlite, secret); pass --force to replace it.\n`,
    );
    const forced = await runOperationsCommand(["restore", backupFile, "--force"], {
      IDENTITY_DATA_DIR: restoredDir,
    });
    expect(forced.code).toBe(0);

    const restoredServer = await startChildServer(restoredDir, oauth2Env);
    try {
      const login = await passwordLogin(restoredServer, "before-backup@example.com");
      expect(login.status).toBe(200);
      expect(login.body.session_token).toEqual(expect.any(String));
      // Identities made under load before the backup began are there too.
      const loadLogin = await passwordLogin(restoredServer, "load-0-0@example.com");
      expect(loadLogin.status).toBe(200);
    } finally {
      await restoredServer.stop();
    }
  }, 120_000);

  it("refuses a file that is not a backup, and a missing one, with a clear message", async () => {
    const dataDir = path.join(root, "empty");
    const notBackup = path.join(root, "not-a-backup.txt");
    writeFileSync(notBackup, "hello");
    const refused = await runOperationsCommand(["restore", notBackup], {
      IDENTITY_DATA_DIR: dataDir,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not a backup made by "npm run backup"/);
    const missing = await runOperationsCommand(["restore", path.join(root, "nope.sqlite")], {
      IDENTITY_DATA_DIR: dataDir,
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.sqlite does not exist\.\n$/);
    const noDatabase = await runOperationsCommand(["backup", path.join(root, "x.sqlite")], {
      IDENTITY_DATA_DIR: dataDir,
    });
    expect(noDatabase.code).toBe(1);
    expect(noDatabase.stderr).toBe(
      `There is no identity database in ${dataDir} (IDENTITY_DATA_DIR).\n`,
    );
  });

  it("refuses to write a backup over a folder, even with --force, and leaves nothing behind", async () => {
    const dataDir = path.join(root, "folder-target");
    await (await openDatabase(dataDir)).destroy();
    const folder = path.join(root, "backups-folder");
    mkdirSync(folder);
    const refused = await runOperationsCommand(["backup", folder, "--force"], {
      IDENTITY_DATA_DIR: dataDir,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`${folder} is a folder; name the backup file to write.\n`);
    expect(readdirSync(root).filter((name) => name.startsWith("backups-folder."))).toEqual([]);
  });
});
