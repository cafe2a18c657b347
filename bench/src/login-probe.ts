// A quick look at password logins (issue 8) without the whole bench: starts the identity server as
// a child on free ports, seeds identities with one imported argon2id hash through the admin API,
// then runs the bench's API logins (runLogins: GET /self-service/login/api, POST the password,
// 8 connections) and reports logins/s, the hash-bound limit, and CPU time per login of the server
// and of this process (the load generator), which the machine's other users disturb less.
//
//   node bench/src/login-probe.ts                       # 10 s, 200 identities
//   PROBE_SECONDS=5 PROBE_ROUNDS=3 node bench/src/login-probe.ts
//   PROBE_CPU_PROF=<dir> node bench/src/login-probe.ts  # server under --cpu-prof, top self time
//
// After the login rounds, two more split the main thread's share: API flow creations alone
// (GET /self-service/login/api; a submission's share is the login's minus this) and the floor of
// any request on this server (GET /health/alive: HTTP parsing, hooks, the answer's socket write).
// The profile is sampled by wall time, so a thread preempted (by a woken pool thread or the load
// generator on a busy machine) shows as self time where it stopped: the schedstat figures are the
// CPU measure, the profile says where to look.
//
// PROBE_CHEAP_HASH=1: the identities' imported argon2id hash has tiny parameters (m=64 KiB, t=1),
// so the hash neither takes the cores nor evicts the caches the main thread runs in: what is left
// is the server's own work per login, measurable without the hash's disturbance.
// PROBE_SERVER=<path of main.ts>: another copy of the server (e.g. an older commit's, to compare).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { measureHashLimit } from "./argon2-limit.ts";
import { emailOf, seedIdentities } from "./identity-api.ts";
import { runLoad, runLogins } from "./load.ts";
import { startNode, stopProcess, waitForPort } from "./processes.ts";
import { cpuMs, freePort, printNewestProfile, threadCpuMs } from "./probe-support.ts";
import { hashPassword } from "../../identity-server/src/methods/password/hasher.ts";

const seconds = Number(process.env.PROBE_SECONDS ?? 10);
const rounds = Number(process.env.PROBE_ROUNDS ?? 1);
const identities = Number(process.env.PROBE_IDENTITIES ?? 200);
const connections = Number(process.env.PROBE_CONNECTIONS ?? 8);
// As long as the bench's login row warms up (server-figures.ts).
const warmUpSeconds = Number(process.env.PROBE_WARMUP_SECONDS ?? 10);
const profileDir = process.env.PROBE_CPU_PROF;
const cheapHash = process.env.PROBE_CHEAP_HASH === "1";

const ports: number[] = [];
for (let i = 0; i < 5; i++) ports.push(await freePort());
const [publicPort = 0, adminPort = 0, mailboxPort = 0, oauth2Public = 0, oauth2Admin = 0] = ports;
const dataDir = mkdtempSync(path.join(tmpdir(), "login-probe-"));
const password = "probe-Password-2024!";
// argon2id of `password` with m=64 KiB, t=1, p=1 (made once with @node-rs/argon2).
const cheapHashOfPassword =
  "$argon2id$v=19$m=64,t=1,p=1$2dWX4u90BTM172j+s2mkbA$XvBnrpXjx5+WCJBAAe5cYjNBRE0K3pDEEYTcL9X04rs";

// PROBE_NODE_ARGS replaces the server's V8 flags (e.g. another semi-space size).
const nodeArgs = [
  ...(process.env.PROBE_NODE_ARGS ?? "--max-semi-space-size=8").split(" ").filter(Boolean),
  ...(process.env.PROBE_PERF_MAP === "1" ? ["--perf-basic-prof"] : []),
  ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
];
const identity = startNode(process.env.PROBE_SERVER ?? "identity-server/src/main.ts", {
  NODE_OPTIONS: nodeArgs.join(" "),
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
  await seedIdentities(
    0,
    identities,
    cheapHash ? cheapHashOfPassword : await hashPassword(password),
    `http://127.0.0.1:${adminPort}`,
  );
  let next = 0;
  const nextIdentifier = () => emailOf(next++ % identities);
  // Warm-up (JIT, statement cache), not measured.
  await runLogins(publicUrl, nextIdentifier, password, connections, warmUpSeconds);
  const limit = await measureHashLimit(10);
  console.log(
    `argon2id ${limit.hashMedianMs} ms alone, ${limit.hashTogetherMs} ms with ${limit.cores} at once → limit ${limit.limitPerSecond} logins/s (${limit.limitAlonePerSecond} from one alone)`,
  );
  for (let round = 1; round <= rounds; round++) {
    const serverBefore = cpuMs(identity.pid);
    const threadsBefore = threadCpuMs(identity.pid);
    const selfBefore = process.cpuUsage();
    const figures = await runLogins(publicUrl, nextIdentifier, password, connections, seconds);
    const self = process.cpuUsage(selfBefore);
    const logins = Math.max(1, figures.total);
    const serverPerLogin = ((cpuMs(identity.pid) - serverBefore) * 1000) / logins;
    const loaderPerLogin = (self.user + self.system) / logins;
    const threads = threadCpuMs(identity.pid);
    const perLogin = (key: "main" | "pool" | "other") =>
      Math.round(((threads[key] - threadsBefore[key]) * 1000) / logins);
    console.log(
      `round ${round} (${seconds} s, ${connections} connections): ${figures.perSecond.toFixed(1)} logins/s ` +
        `(ratio ${(figures.perSecond / limit.limitPerSecond).toFixed(2)}), p50 ${figures.p50.toFixed(1)} ms, ` +
        `p99 ${figures.p99.toFixed(1)} ms, errors ${figures.errors}; CPU per login: server ` +
        `${Math.round(serverPerLogin)} µs (of which argon2 ≈ ${Math.round(limit.hashMedianMs * 1000)} µs), ` +
        `load generator ${Math.round(loaderPerLogin)} µs; server threads: main ${perLogin("main")} µs, ` +
        `libuv pool (the hash) ${perLogin("pool")} µs, V8 helpers ${perLogin("other")} µs`,
    );
  }
  await perRequestRound(
    identity.pid,
    "API flow creations alone",
    `${publicUrl}/self-service/login/api`,
  );
  await perRequestRound(identity.pid, "floor (GET /health/alive)", `${publicUrl}/health/alive`);
  // Work the server does without requests (timers, metrics, checkpoints): a per-second cost that a
  // slower login round counts in a larger share per login.
  const idleBefore = threadCpuMs(identity.pid).main;
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const idleMs = (threadCpuMs(identity.pid).main - idleBefore) / 5;
  console.log(`idle: main thread ${idleMs.toFixed(2)} ms per second`);
} finally {
  await stopProcess(identity);
  rmSync(dataDir, { recursive: true, force: true });
}

if (profileDir) printNewestProfile(profileDir);

/** Main-thread CPU per request of one kind of request, run alone on `connections` connections. */
async function perRequestRound(pid: number | undefined, label: string, url: string) {
  const before = threadCpuMs(pid).main;
  const figures = await runLoad({ url, connections, seconds: Math.min(seconds, 5) });
  const requests = Math.max(1, figures.total);
  const main = Math.round(((threadCpuMs(pid).main - before) * 1000) / requests);
  console.log(
    `${label}: ${figures.perSecond.toFixed(0)}/s, errors ${figures.errors}; main thread ${main} µs per request`,
  );
}
