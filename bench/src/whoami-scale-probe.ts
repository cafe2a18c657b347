// whoami with few sessions against many, side by side in one server (issue 19's flat-cost target),
// without the whole bench: starts the identity server as a child on free ports, seeds N identities
// (admin API) and one session each (bench/src/seed-sessions.ts), then alternates whoami load over
// random sessions of the first 1,000 and of all N (10 connections, as bench/src/scaling.ts), with
// req/s and the server's CPU time per request (and its part in the kernel: socket writes, SQLite's
// page reads).
//
//   node bench/src/whoami-scale-probe.ts                   # N = 100,000, 3 rounds of 5 s each
//   PROBE_N=20000 PROBE_ROUNDS=2 PROBE_SECONDS=5 node bench/src/whoami-scale-probe.ts
//   PROBE_CPU_PROF=<dir> ...                               # server under --cpu-prof, top self time
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { hash } from "@node-rs/argon2";
import { seedIdentities } from "./identity-api.ts";
import { runLoad } from "./load.ts";
import { cpuMs, freePort, printNewestProfile, systemCpuMs } from "./probe-support.ts";
import { startNode, stopProcess, waitForPort } from "./processes.ts";
import { seedSessions } from "./seed-sessions.ts";

const size = Number(process.env.PROBE_N ?? 100_000);
const few = 1000;
const seconds = Number(process.env.PROBE_SECONDS ?? 5);
const rounds = Number(process.env.PROBE_ROUNDS ?? 3);
const profileDir = process.env.PROBE_CPU_PROF;

const ports: number[] = [];
for (let i = 0; i < 5; i++) ports.push(await freePort());
const [publicPort = 0, adminPort = 0, mailboxPort = 0, oauth2Public = 0, oauth2Admin = 0] = ports;
const dataDir = mkdtempSync(path.join(tmpdir(), "whoami-scale-probe-"));

const identity = startNode(process.env.PROBE_SERVER ?? "identity-server/src/main.ts", {
  NODE_OPTIONS: [
    "--max-semi-space-size=4",
    ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
  ].join(" "),
  IDENTITY_DATA_DIR: dataDir,
  IDENTITY_LOG_LEVEL: "warn",
  IDENTITY_SECRET: "probe-secret-probe-secret-probe-secret-0123",
  IDENTITY_PUBLIC_PORT: String(publicPort),
  IDENTITY_ADMIN_PORT: String(adminPort),
  IDENTITY_MAILBOX_PORT: String(mailboxPort),
  IDENTITY_OAUTH2_PUBLIC_PORT: String(oauth2Public),
  IDENTITY_OAUTH2_ADMIN_PORT: String(oauth2Admin),
  IDENTITY_OAUTH2_ISSUER: `http://localhost:${oauth2Public}`,
});

try {
  await waitForPort(publicPort, identity);
  await waitForPort(adminPort, identity);
  const publicUrl = `http://127.0.0.1:${publicPort}`;
  let started = performance.now();
  const ids = await seedIdentities(
    0,
    size,
    await hash("probe-Password-2024!"),
    `http://127.0.0.1:${adminPort}`,
  );
  const tokens = await seedSessions(dataDir, ids);
  console.log(
    `seeded ${size} identities and sessions in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const load = async (pool: number) => {
    const before = cpuMs(identity.pid);
    const sysBefore = systemCpuMs(identity.pid);
    const figures = await runLoad({
      url: `${publicUrl}/sessions/whoami`,
      connections: 10,
      seconds,
      requests: [
        {
          method: "GET",
          setupRequest: (request) => ({
            ...request,
            headers: { "x-session-token": tokens[Math.floor(Math.random() * pool)] ?? "" },
          }),
        },
      ],
    });
    const cpu = ((cpuMs(identity.pid) - before) * 1000) / Math.max(1, figures.total);
    const sys = ((systemCpuMs(identity.pid) - sysBefore) * 1000) / Math.max(1, figures.total);
    return { ...figures, cpu, sys };
  };
  started = performance.now();
  await load(size);
  await load(few);
  const fmt = (f: Awaited<ReturnType<typeof load>>) =>
    `${Math.round(f.perSecond)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, errors ${f.errors}, server CPU ${Math.round(f.cpu)} µs/request (${Math.round(f.sys)} in the kernel)`;
  for (let round = 1; round <= rounds; round++) {
    const small = await load(few);
    const large = await load(size);
    console.log(`round ${round} (${seconds} s each, 10 connections)`);
    console.log(`  ${few} sessions:  ${fmt(small)}`);
    console.log(`  ${size} sessions: ${fmt(large)}`);
    console.log(`  ratio: ${(large.perSecond / small.perSecond).toFixed(2)}`);
  }
} finally {
  await stopProcess(identity);
  rmSync(dataDir, { recursive: true, force: true });
}

if (profileDir) printNewestProfile(profileDir);
