import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { expect } from "vitest";
import { databaseFileName } from "../store/database.ts";
import {
  killChildServers,
  startChildServer,
  type ChildServer,
} from "../test-support/child-server.ts";

// One crash round for crash-safety.test.ts and its soak variant: kill -9 in the middle of
// concurrent registrations and logins, then a restart on the same data dir, and the checks that
// everything the server acknowledged is there and usable, nothing is half-written, and the SQLite
// file is intact.

const password = "crash-Safety-battery-7-staple";

/** Kills every child still running (an afterAll safety net for a failed round). */
export function killChildren(): void {
  killChildServers();
}

/** The server in its own process, to be killed mid-write. */
function startChild(dataDir: string): Promise<ChildServer> {
  return startChildServer(dataDir, {
    // The storm comes from one address; this test is about durability, not throttling.
    IDENTITY_RATE_LIMIT_PASSWORD_PER_IP: "100000",
    IDENTITY_RATE_LIMIT_PASSWORD_PER_IDENTIFIER: "100000",
  });
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function flowId(publicUrl: string, kind: "login" | "registration"): Promise<string> {
  const response = await fetch(`${publicUrl}/self-service/${kind}/api`);
  return String(((await response.json()) as { id: string }).id);
}

async function register(publicUrl: string, email: string) {
  const flow = await flowId(publicUrl, "registration");
  return post(`${publicUrl}/self-service/registration?flow=${flow}`, {
    method: "password",
    password,
    traits: { email },
  });
}

async function login(publicUrl: string, email: string) {
  const flow = await flowId(publicUrl, "login");
  return post(`${publicUrl}/self-service/login?flow=${flow}`, {
    method: "password",
    identifier: email,
    password,
  });
}

export interface CrashRoundReport {
  /** Registrations answered 200 before the kill. */
  identities: number;
  /** Logins answered 200 (with a session token) before the kill. */
  sessions: number;
}

/**
 * Starts the server on `dataDir`, creates `logins` identities, fires `registrations` registrations
 * and `logins` logins at once, kills the server with SIGKILL once a third of them were answered,
 * restarts it and checks what was acknowledged, then checks the database file.
 */
export async function crashRound(
  dataDir: string,
  { registrations, logins }: { registrations: number; logins: number },
): Promise<CrashRoundReport> {
  const first = await startChild(dataDir);
  const run = Date.now();
  // Identities to log in to during the storm, created through the admin API.
  const existing = await Promise.all(
    Array.from({ length: logins }, async (_, i) => {
      const email = `crash-login-${run}-${i}@example.org`;
      const created = await post(`${first.adminUrl}/admin/identities`, {
        schema_id: "default",
        traits: { email },
        credentials: { password: { config: { password } } },
      });
      expect(created.status).toBe(201);
      return email;
    }),
  );

  // The storm: registrations and logins at once; kill -9 once a third has been answered.
  const acknowledged = {
    identities: [] as { id: string; email: string }[],
    sessions: [] as string[],
  };
  let answered = 0;
  const killAt = Math.floor((registrations + logins) / 3);
  let killed = false;
  const killNow = () => {
    if (killed) return;
    killed = true;
    first.child.kill("SIGKILL");
  };
  const counted = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch {
      // The connection died with the server: not acknowledged.
    }
    answered += 1;
    if (answered >= killAt) killNow();
  };
  const storm = [
    ...Array.from({ length: registrations }, (_, i) =>
      counted(async () => {
        const email = `crash-register-${run}-${i}@example.org`;
        const result = await register(first.publicUrl, email);
        const identity = result.body.identity as { id?: string } | undefined;
        if (result.status === 200 && identity?.id) {
          acknowledged.identities.push({ id: identity.id, email });
        }
      }),
    ),
    ...existing.map((email) =>
      counted(async () => {
        const result = await login(first.publicUrl, email);
        if (result.status === 200 && typeof result.body.session_token === "string") {
          acknowledged.sessions.push(result.body.session_token);
        }
      }),
    ),
  ];
  await Promise.all(storm);
  killNow();
  await first.exited;
  expect(first.child.signalCode).toBe("SIGKILL");
  // Some answers came before the kill, and some requests were still in flight.
  expect(acknowledged.identities.length + acknowledged.sessions.length).toBeGreaterThan(0);
  expect(acknowledged.identities.length + acknowledged.sessions.length).toBeLessThan(
    registrations + logins,
  );

  const second = await startChild(dataDir);
  try {
    // Every acknowledged identity is there, complete, and its password works.
    for (const { id, email } of acknowledged.identities) {
      const response = await fetch(
        `${second.adminUrl}/admin/identities/${id}?include_credential=password`,
      );
      expect(response.status, email).toBe(200);
      const identity = (await response.json()) as {
        traits: { email: string };
        credentials?: { password?: { identifiers: string[] } };
        verifiable_addresses?: { value: string }[];
        recovery_addresses?: { value: string }[];
      };
      expect(identity.traits.email).toBe(email);
      expect(identity.credentials?.password?.identifiers).toEqual([email]);
      expect(identity.verifiable_addresses?.map((a) => a.value)).toEqual([email]);
      expect(identity.recovery_addresses?.map((a) => a.value)).toEqual([email]);
    }
    await Promise.all(
      acknowledged.identities.map(async ({ email }) => {
        expect((await login(second.publicUrl, email)).status, email).toBe(200);
      }),
    );
    // Every acknowledged session still answers whoami.
    for (const token of acknowledged.sessions) {
      const whoami = await fetch(`${second.publicUrl}/sessions/whoami`, {
        headers: { "x-session-token": token },
      });
      expect(whoami.status).toBe(200);
    }
  } finally {
    second.child.kill("SIGTERM");
    await second.exited;
  }

  // The file itself: intact, and no row without the rows it needs.
  const db = new DatabaseSync(path.join(dataDir, databaseFileName), { readOnly: true });
  try {
    expect(db.prepare("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    expect(db.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
    const orphans = (query: string) => db.prepare(query).all();
    // Every identity has its password credential, its identifier and its addresses.
    expect(
      orphans(`SELECT id FROM identities i WHERE NOT EXISTS
        (SELECT 1 FROM identity_credentials c WHERE c.identity_id = i.id AND c.type = 'password')`),
    ).toEqual([]);
    expect(
      orphans(`SELECT id FROM identities i WHERE NOT EXISTS
        (SELECT 1 FROM identity_credential_identifiers c WHERE c.identity_id = i.id)`),
    ).toEqual([]);
    expect(
      orphans(`SELECT id FROM identities i WHERE NOT EXISTS
        (SELECT 1 FROM identity_verifiable_addresses a WHERE a.identity_id = i.id)
        OR NOT EXISTS (SELECT 1 FROM identity_recovery_addresses a WHERE a.identity_id = i.id)`),
    ).toEqual([]);
    // Nothing points to a missing identity or credential.
    for (const table of [
      "identity_credentials",
      "identity_credential_identifiers",
      "identity_verifiable_addresses",
      "identity_recovery_addresses",
      "sessions",
    ]) {
      expect(
        orphans(`SELECT t.id FROM ${table} t LEFT JOIN identities i ON i.id = t.identity_id
          WHERE i.id IS NULL`),
        table,
      ).toEqual([]);
    }
    expect(
      orphans(`SELECT x.id FROM identity_credential_identifiers x
        LEFT JOIN identity_credentials c ON c.id = x.credential_id WHERE c.id IS NULL`),
    ).toEqual([]);
    expect(
      orphans(`SELECT d.id FROM session_devices d LEFT JOIN sessions s ON s.id = d.session_id
        WHERE s.id IS NULL`),
    ).toEqual([]);
  } finally {
    db.close();
  }
  return { identities: acknowledged.identities.length, sessions: acknowledged.sessions.length };
}
