// Side-by-side /sessions/whoami of several identity-server copies (e.g. older commits checked out in
// `git worktree`s) against the bench's bare Fastify, alternating within each round so that the
// shared machine's neighbours weigh on every copy alike. The session is a browser sign-in's
// cookies, as the whole bench sends them (bench/src/server-figures.ts).
//
//   node bench/src/whoami-compare.ts <main.ts of copy A> <main.ts of copy B> ...
//   COMPARE_SECONDS=5 COMPARE_ROUNDS=3 COMPARE_CONNECTIONS=50 node bench/src/whoami-compare.ts ...
//
// Besides throughput and p99 it prints the server's CPU per answer and the load generator's own
// (this process runs autocannon on the same two cores): a bigger answer costs the client too.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { browserLogin, cookieHeader } from "./identity-api.ts";
import { runLoad, type LoadFigures } from "./load.ts";
import { cpuMs, freePort } from "./probe-support.ts";
import { startNode, stopProcess, waitForPort } from "./processes.ts";

const seconds = Number(process.env.COMPARE_SECONDS ?? 5);
const rounds = Number(process.env.COMPARE_ROUNDS ?? 3);
const connections = Number(process.env.COMPARE_CONNECTIONS ?? 50);
const servers = process.argv.slice(2);
if (servers.length === 0) throw new Error("name at least one identity-server main.ts");

const secret = "probe-secret-probe-secret-probe-secret-0123";
const password = "probe-Password-2024!";

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  child: ChildProcess;
  dataDir: string;
}

async function startIdentity(main: string): Promise<Target> {
  const [publicPort, adminPort, mailboxPort, oauth2Public, oauth2Admin] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  const dataDir = mkdtempSync(path.join(tmpdir(), "whoami-compare-"));
  // As start-all runs it (production, warn-level logs, its young-generation size), from the sources.
  const child = startNode(main, {
    NODE_ENV: "production",
    NODE_OPTIONS: "--max-semi-space-size=4",
    IDENTITY_DATA_DIR: dataDir,
    IDENTITY_LOG_LEVEL: "warn",
    IDENTITY_SECRET: secret,
    IDENTITY_PUBLIC_PORT: String(publicPort),
    IDENTITY_ADMIN_PORT: String(adminPort),
    IDENTITY_MAILBOX_PORT: String(mailboxPort),
    IDENTITY_OAUTH2_PUBLIC_PORT: String(oauth2Public),
    IDENTITY_OAUTH2_ADMIN_PORT: String(oauth2Admin),
    IDENTITY_OAUTH2_ISSUER: `http://localhost:${oauth2Public}`,
  });
  await waitForPort(Number(publicPort), child);
  await waitForPort(Number(adminPort), child);
  const url = `http://127.0.0.1:${publicPort}`;
  const email = "compare@bench.example";
  const created = await fetch(`http://127.0.0.1:${adminPort}/admin/identities`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      schema_id: "default",
      traits: { email },
      credentials: { password: { config: { password } } },
    }),
  });
  if (!created.ok) throw new Error(`${main}: identity not created (${created.status})`);
  const headers = { cookie: cookieHeader(await browserLogin(email, url, password)) };
  const check = await fetch(`${url}/sessions/whoami`, { headers });
  const body = await check.text();
  if (check.status !== 200) throw new Error(`${main}: whoami answered ${check.status}`);
  const headerBytes = [...check.headers].reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
  const name = main.replace(/\/identity-server\/src\/main\.ts$/, "");
  console.log(`${name}: whoami answer ${headerBytes} B of headers, ${body.length} B of body`);
  return { name, url, headers, child, dataDir };
}

interface Measured extends LoadFigures {
  serverUs: number;
  clientUs: number;
}

/** One autocannon run with the server's and this process's CPU per answer (µs). */
async function measured(pid: number | undefined, url: string, headers = {}): Promise<Measured> {
  const server = cpuMs(pid);
  const client = process.cpuUsage();
  const figures = await runLoad({ url, headers, connections, seconds });
  const answers = Math.max(1, figures.total);
  const clientUsed = process.cpuUsage(client);
  return {
    ...figures,
    serverUs: ((cpuMs(pid) - server) * 1000) / answers,
    clientUs: (clientUsed.user + clientUsed.system) / answers,
  };
}

const fmt = (f: Measured) =>
  `${Math.round(f.perSecond)}/s p50 ${f.p50} p99 ${f.p99} ms, server ${Math.round(f.serverUs)} µs, client ${Math.round(f.clientUs)} µs${f.errors ? `, errors ${f.errors}` : ""}`;

const barePort = await freePort();
const bare = startNode("bench/src/bare-fastify.ts", { BARE_PORT: String(barePort) });
const targets: Target[] = [];
try {
  await waitForPort(barePort, bare);
  for (const main of servers) targets.push(await startIdentity(main));
  const bareUrl = `http://127.0.0.1:${barePort}/`;
  // Warm-up (JIT, caches) of every server before measuring.
  await runLoad({ url: bareUrl, connections, seconds: 2 });
  for (const t of targets)
    await runLoad({ url: `${t.url}/sessions/whoami`, headers: t.headers, connections, seconds: 2 });
  const ratios = new Map<string, number[]>();
  for (let round = 1; round <= rounds; round++) {
    const b = await measured(bare.pid, bareUrl);
    console.log(
      `round ${round} (load ${loadavg()
        .map((n) => n.toFixed(2))
        .join(" / ")}): bare ${fmt(b)}`,
    );
    // Each round in another order, so no copy always follows the bare run.
    const order = round % 2 ? targets : [...targets].reverse();
    for (const t of order) {
      const w = await measured(t.child.pid, `${t.url}/sessions/whoami`, t.headers);
      const ratio = w.perSecond / b.perSecond;
      ratios.set(t.name, [...(ratios.get(t.name) ?? []), ratio]);
      console.log(`  ${t.name}: ${fmt(w)}, ÷ bare ${ratio.toFixed(2)}`);
    }
  }
  for (const [name, list] of ratios)
    console.log(`${name}: ratios ${list.map((r) => r.toFixed(2)).join(" ")}`);
} finally {
  await stopProcess(bare);
  for (const t of targets) {
    await stopProcess(t.child);
    rmSync(t.dataDir, { recursive: true, force: true });
  }
}
