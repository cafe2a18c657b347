// A quick look at /sessions/whoami against a bare Fastify route (issue 8), without the whole bench:
// starts the identity server and bench/src/bare-fastify.ts as children on free ports, creates an
// identity and an API session, then runs autocannon (50 connections) on both, bare first.
//
//   node bench/src/whoami-probe.ts                       # 10 s each, session cookie
//   PROBE_SECONDS=5 PROBE_AUTH=token node bench/src/whoami-probe.ts
//   PROBE_CPU_PROF=<dir> node bench/src/whoami-probe.ts  # server under --cpu-prof, top self time
//
// PROBE_ALSO=<path> also loads that path of the identity server (e.g. /health/alive) each round.
// PROBE_ROUNDS=n repeats the pair n times (the machine is shared; one pair is noisy).
// PROBE_HEAP_PROF=<file>: the first round's whoami load under V8's sampling heap profiler, garbage
// included (heap-sample-hook.mjs); prints the bytes per answer by allocation site.
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { browserLogin, cookieHeader } from "./identity-api.ts";
import { runLoad } from "./load.ts";
import { heapSample, printHeapSample } from "./heap-sample.ts";
import { cpuMs, freePort, printNewestProfile } from "./probe-support.ts";
import { startNode, stopProcess, waitForPort } from "./processes.ts";

const seconds = Number(process.env.PROBE_SECONDS ?? 10);
const rounds = Number(process.env.PROBE_ROUNDS ?? 1);
// cookie: the API session's token signed into the session cookie; token: X-Session-Token;
// browser: a browser sign-in's cookies (session and CSRF), as the whole bench sends them.
const auth = (["token", "browser"] as const).find((a) => a === process.env.PROBE_AUTH) ?? "cookie";
const profileDir = process.env.PROBE_CPU_PROF;
const heapFile = process.env.PROBE_HEAP_PROF && path.resolve(process.env.PROBE_HEAP_PROF);

/** A load run with the server's CPU time per answered request (µs), less sensitive to neighbours. */
async function measured(pid: number | undefined, options: Parameters<typeof runLoad>[0]) {
  const before = cpuMs(pid);
  const figures = await runLoad(options);
  const cpuPerRequest = ((cpuMs(pid) - before) * 1000) / Math.max(1, figures.total);
  return { ...figures, cpuPerRequest };
}

/** The session cookie's value as the server signs it (identity-server/src/http/cookies.ts). */
const signCookieValue = (key: string, value: string): string =>
  `${value}.${createHmac("sha256", key).update(value).digest("base64url")}`;

async function json<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

const ports: number[] = [];
for (let i = 0; i < 6; i++) ports.push(await freePort());
const [
  publicPort = 0,
  adminPort = 0,
  mailboxPort = 0,
  oauth2Public = 0,
  oauth2Admin = 0,
  barePort = 0,
] = ports;
const dataDir = mkdtempSync(path.join(tmpdir(), "whoami-probe-"));
const secret = "probe-secret-probe-secret-probe-secret-0123";
const password = "probe-Password-2024!";

const nodeArgs = [
  "--max-semi-space-size=8",
  ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
  ...(heapFile ? [`--import=${path.resolve("bench/src/heap-sample-hook.mjs")}`] : []),
];
// startNode runs `node <script>`; node options go through NODE_OPTIONS (--cpu-prof is allowed there).
// PROBE_SERVER=<path of main.ts>: another copy of the server (e.g. an older commit's, to compare).
const identity = startNode(process.env.PROBE_SERVER ?? "identity-server/src/main.ts", {
  NODE_OPTIONS: nodeArgs.join(" "),
  IDENTITY_DATA_DIR: dataDir,
  IDENTITY_LOG_LEVEL: "warn",
  IDENTITY_SECRET: secret,
  IDENTITY_PUBLIC_PORT: String(publicPort),
  IDENTITY_ADMIN_PORT: String(adminPort),
  IDENTITY_MAILBOX_PORT: String(mailboxPort),
  IDENTITY_OAUTH2_PUBLIC_PORT: String(oauth2Public),
  IDENTITY_OAUTH2_ADMIN_PORT: String(oauth2Admin),
  IDENTITY_OAUTH2_ISSUER: `http://localhost:${oauth2Public}`,
  ...(heapFile ? { HEAP_SAMPLE_FILE: heapFile } : {}),
});
const bare = startNode("bench/src/bare-fastify.ts", { BARE_PORT: String(barePort) });

try {
  await waitForPort(publicPort, identity);
  await waitForPort(adminPort, identity);
  await waitForPort(barePort, bare);
  const publicUrl = `http://127.0.0.1:${publicPort}`;
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const email = "probe@bench.example";
  await json(
    await fetch(`${adminUrl}/admin/identities`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        schema_id: "default",
        traits: { email },
        credentials: { password: { config: { password } } },
      }),
    }),
    "POST /admin/identities",
  );
  const flow = await json<{ id: string }>(
    await fetch(`${publicUrl}/self-service/login/api`),
    "GET /self-service/login/api",
  );
  const { session_token: token } = await json<{ session_token: string }>(
    await fetch(`${publicUrl}/self-service/login?flow=${flow.id}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "password", identifier: email, password }),
    }),
    "POST /self-service/login",
  );
  const headers: Record<string, string> =
    auth === "token"
      ? { "x-session-token": token }
      : auth === "browser"
        ? { cookie: cookieHeader(await browserLogin(email, publicUrl, password)) }
        : { cookie: `ory_kratos_session=${signCookieValue(secret, token)}` };
  const check = await fetch(`${publicUrl}/sessions/whoami`, { headers });
  if (check.status !== 200) throw new Error(`whoami answered ${check.status}`);
  // What the load generator parses per answer (it shares the cores with the server).
  const body = await check.text();
  const headerBytes = [...check.headers].reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
  console.log(`whoami answer: ${headerBytes} B of headers, ${body.length} B of body`);

  // Warm-up (JIT, statement cache) before measuring.
  await runLoad({ url: `${publicUrl}/sessions/whoami`, headers, connections: 50, seconds: 2 });
  await runLoad({ url: `http://127.0.0.1:${barePort}/`, connections: 50, seconds: 1 });
  for (let round = 1; round <= rounds; round++) {
    const b = await measured(bare.pid, {
      url: `http://127.0.0.1:${barePort}/`,
      connections: 50,
      seconds,
    });
    const sampled = heapFile !== undefined && round === 1;
    if (sampled) identity.kill("SIGUSR2");
    const w = await measured(identity.pid, {
      url: `${publicUrl}/sessions/whoami`,
      headers,
      connections: 50,
      seconds,
    });
    if (sampled) {
      identity.kill("SIGUSR2");
      printHeapSample(await heapSample(heapFile), w.total);
    }
    const fmt = (f: typeof b) =>
      `${Math.round(f.perSecond)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, errors ${f.errors}, server CPU ${Math.round(f.cpuPerRequest)} µs/request`;
    console.log(`round ${round} (${auth}, ${seconds} s, 50 connections)`);
    console.log(`  bare Fastify: ${fmt(b)}`);
    console.log(`  whoami:       ${fmt(w)}`);
    console.log(`  ratio:        ${(w.perSecond / b.perSecond).toFixed(2)}`);
    // Throughput on a shared machine follows the neighbours; CPU per request much less so.
    console.log(
      `  CPU ratio:    ${(b.cpuPerRequest / w.cpuPerRequest).toFixed(2)} (bare ÷ whoami µs)`,
    );
    // PROBE_ALSO=/health/alive: the same server's cheapest route under the same load, for scale.
    const also = process.env.PROBE_ALSO;
    if (also) {
      const a = await measured(identity.pid, {
        url: `${publicUrl}${also}`,
        connections: 50,
        seconds,
      });
      console.log(`  ${also}: ${fmt(a)}`);
    }
  }
} finally {
  await stopProcess(bare);
  await stopProcess(identity);
  rmSync(dataDir, { recursive: true, force: true });
}

if (profileDir) printNewestProfile(profileDir);
