// The identity server's peak RSS under the bench's mixed traffic, without the portal, the demo or
// a build of them, for comparing V8 and malloc settings side by side: each variant in turn
// (alternating, PROBE_ROUNDS times) starts the server as start-all does (plain JavaScript from
// dist/, the same glibc settings), seeds PROBE_IDENTITIES (1000), runs the bench's single-kind
// loads briefly (PROBE_PRELOAD seconds each, 3; 0 skips them) and then PROBE_SECONDS (30) of the
// mixed traffic, and prints the peak RSS of the mixed part, of the whole run and the kernel's VmHWM.
//
//   node bench/src/identity-memory-probe.ts
//   PROBE_VARIANTS='--max-semi-space-size=4 --heap-growing-percent=50|--max-semi-space-size=2' \
//     node bench/src/identity-memory-probe.ts
//
// BENCH_PORT_BASE moves the ports (a bench or another probe may be running).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { memorySettings } from "../../scripts/memory-settings.ts";
import { buildServer } from "../../scripts/server-build.ts";
import { hashPassword } from "../../identity-server/src/methods/password/hasher.ts";
import { measureHashLimit } from "./argon2-limit.ts";
import {
  benchPassword,
  browserLogin,
  clientCredentialsToken,
  cookieHeader,
  createClient,
  emailOf,
  seedIdentities,
} from "./identity-api.ts";
import { RssSampler, statusBytes } from "./memory.ts";
import { mixedTraffic } from "./mixed-traffic.ts";
import { ports, urls } from "./ports.ts";
import { cpuMs, threadCpuMs } from "./probe-support.ts";
import { runLoad, runLogins } from "./load.ts";
import { repoRoot, stopProcess, waitForPort } from "./processes.ts";
import { serverFigures, whoamiRequest } from "./server-figures.ts";

const identities = Number(process.env.PROBE_IDENTITIES ?? 1000);
const seconds = Number(process.env.PROBE_SECONDS ?? 30);
const preloadSeconds = Number(process.env.PROBE_PRELOAD ?? 3);
const rounds = Number(process.env.PROBE_ROUNDS ?? 2);
// The first variant is start-all's (scripts/start-all.ts); the others are what is compared with it.
const variants = (
  process.env.PROBE_VARIANTS ?? "--max-semi-space-size=4 --heap-growing-percent=50"
).split("|");

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

async function measure(flags: string): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "identity-memory-probe-"));
  const script = await buildServer("identity-server");
  const child = spawn(process.execPath, [...flags.split(" ").filter(Boolean), script], {
    cwd: path.join(repoRoot, "identity-server"),
    env: {
      ...process.env,
      ...memorySettings["identity-server"].env,
      IDENTITY_DATA_DIR: dataDir,
      IDENTITY_LOG_LEVEL: "warn",
      IDENTITY_PUBLIC_PORT: String(ports.identityPublic),
      IDENTITY_ADMIN_PORT: String(ports.identityAdmin),
      IDENTITY_MAILBOX_PORT: String(ports.mailbox),
      IDENTITY_OAUTH2_PUBLIC_PORT: String(ports.oauth2Public),
      IDENTITY_OAUTH2_ADMIN_PORT: String(ports.oauth2Admin),
      IDENTITY_OAUTH2_ISSUER: `http://localhost:${ports.oauth2Public}`,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    await waitForPort(ports.oauth2Admin, child);
    const pid = child.pid ?? 0;
    const sampler = new RssSampler({ "identity-server": pid });
    const idle = statusBytes(pid, "VmRSS");
    await seedIdentities(0, identities, await hashPassword(benchPassword));
    const cookies = await browserLogin(emailOf(0), urls.identityPublic);
    const client = await createClient();
    let counter = 0;
    const targets = {
      sessionCookie: cookieHeader(cookies),
      nextIdentifier: () => emailOf(counter++ % identities),
      accessToken: await clientCredentialsToken(client),
      client,
    };
    if (preloadSeconds > 0) await serverFigures(targets, await measureHashLimit(), preloadSeconds);
    const mixed = await mixedTraffic(targets, sampler, seconds);
    const whole = sampler.peakSinceStart()["identity-server"] ?? 0;
    sampler.stop();
    // What a V8 flag costs, less swayed by other work on the machine than the rates: the server's
    // CPU time per whoami (50 connections) and its main thread's per login (the argon2id hash runs
    // in the pool), each alone for a few seconds after the mixed traffic.
    let before = cpuMs(pid);
    const whoami = await runLoad({
      ...whoamiRequest(targets.sessionCookie),
      connections: 50,
      seconds: 5,
    });
    const cpuPerWhoami = (cpuMs(pid) - before) / Math.max(1, whoami.total);
    before = threadCpuMs(pid).main;
    const logins = await runLogins(
      urls.identityPublic,
      targets.nextIdentifier,
      benchPassword,
      8,
      5,
    );
    const mainPerLogin = (threadCpuMs(pid).main - before) / Math.max(1, logins.total);
    return (
      `idle ${mb(idle)}, mixed peak ${mb(mixed.peakRssBytes["identity-server"] ?? 0)}, ` +
      `whole-run peak ${mb(whole)}, VmHWM ${mb(statusBytes(pid, "VmHWM"))}; ` +
      `logins ${mixed.login.perSecond.toFixed(1)}/s, whoami ${mixed.whoami.perSecond.toFixed(0)}/s, ` +
      `errors ${mixed.errors}; server CPU per whoami ${(cpuPerWhoami * 1000).toFixed(0)} µs, ` +
      `main thread per login ${mainPerLogin.toFixed(2)} ms`
    );
  } finally {
    await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (let round = 1; round <= rounds; round++) {
  for (const flags of variants) {
    console.log(`round ${round}, [${flags}]: ${await measure(flags)}`);
  }
}
