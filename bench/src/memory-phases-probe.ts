// Where each server's peak RSS goes under the bench's own load shapes, phase by phase in the
// bench's order: the single-kind identity loads (server), the portal's page views and no-JS
// sign-ins (portal-traffic), the mixed minute (mixed) and the scaling stages (scaling). Starts the
// system as the bench does (scripts/start-all.ts) with memory-hook.mjs in every server; once a
// second reads /proc/<pid>/smaps (memory-parts.ts) and keeps, per phase and server, the sample
// with the highest RSS, printed with the V8 heap spaces the server logged closest to it.
//
//   npm run memory-phases-probe -w bench
//   PROBE_PHASES=portal-traffic,mixed PROBE_VARIANTS='|MALLOC_ARENA_MAX=1' PROBE_ROUNDS=2 \
//     node bench/src/memory-phases-probe.ts
//
// PROBE_VARIANTS: '|'-separated sets of VAR=value added to start-all's environment (variables set
// by the caller win over start-all's own, for every service), run alternately PROBE_ROUNDS times.
// PROBE_LOAD_SECONDS (10), PROBE_MIXED_SECONDS (60), PROBE_SCALE_STAGES (1000,10000,100000) and
// PROBE_SCALE_SECONDS (8) are the bench's settings. BENCH_PORT_BASE moves the ports.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
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
import { describeLoad, OwnLoad } from "./machine-load.ts";
import { describeParts, memoryParts, type MemoryParts } from "./memory-parts.ts";
import { RssSampler } from "./memory.ts";
import { mixedTraffic } from "./mixed-traffic.ts";
import { portalTraffic } from "./portal-traffic.ts";
import { scaling } from "./scaling.ts";
import { serverFigures } from "./server-figures.ts";
import { startSystem } from "./system.ts";

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const loadSeconds = setting("PROBE_LOAD_SECONDS", 10);
const mixedSeconds = setting("PROBE_MIXED_SECONDS", 60);
const scaleSeconds = setting("PROBE_SCALE_SECONDS", 8);
const rounds = setting("PROBE_ROUNDS", 1);
const scaleStages = (process.env.PROBE_SCALE_STAGES ?? "1000,10000,100000").split(",").map(Number);
const phases = new Set(
  (process.env.PROBE_PHASES ?? "server,portal-traffic,mixed,scaling").split(","),
);
const variants = (process.env.PROBE_VARIANTS ?? "").split("|");

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** The heaviest smaps sample of each server since the last reset. */
class PartsSampler {
  private readonly peaks = new Map<string, MemoryParts & { t: number }>();
  private readonly timer: NodeJS.Timeout;
  private readonly pids: Record<string, number>;

  constructor(pids: Record<string, number>) {
    this.pids = pids;
    this.timer = setInterval(() => this.sample(), 1000);
    this.timer.unref();
  }

  private sample(): void {
    for (const [name, pid] of Object.entries(this.pids)) {
      const parts = memoryParts(pid);
      if (parts && parts.total > (this.peaks.get(name)?.total ?? 0))
        this.peaks.set(name, { ...parts, t: Date.now() });
    }
  }

  take(): Map<string, MemoryParts & { t: number }> {
    this.sample();
    const taken = new Map(this.peaks);
    this.peaks.clear();
    return taken;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/**
 * The V8 heap spaces a server's memory-hook.mjs logged closest to time `t`, and the memory V8
 * counts outside its heap (external: Buffers, ArrayBuffers and other native allocations it is told
 * about, most of them malloc's).
 */
function spacesNear(probeDir: string, folder: string, pid: number, t: number): string {
  const file = readdirSync(probeDir).find((f) => f === `${folder}-${pid}.jsonl`);
  if (!file) return "";
  const samples = readFileSync(path.join(probeDir, file), "utf8")
    .trim()
    .split("\n")
    .map(
      (line) =>
        JSON.parse(line) as {
          t: number;
          spaces: Record<string, number>;
          external: number;
          arrayBuffers: number;
        },
    );
  const near = samples.reduce((a, b) => (Math.abs(b.t - t) < Math.abs(a.t - t) ? b : a));
  const spaces = Object.entries(near.spaces)
    .filter(([, bytes]) => bytes >= 2 ** 19)
    .map(([name, bytes]) => `${name.replace(/_space$/, "")} ${(bytes / 2 ** 20).toFixed(1)}`)
    .join(", ");
  return `${spaces}; external ${mb(near.external)} (array buffers ${mb(near.arrayBuffers)})`;
}

async function run(variant: string): Promise<void> {
  const extraEnv = Object.fromEntries(
    variant
      .split(" ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
  );
  const probeDir = mkdtempSync(path.join(tmpdir(), "memory-phases-probe-"));
  const saved = { ...process.env };
  Object.assign(process.env, extraEnv, {
    MEMORY_PROBE_DIR: probeDir,
    NODE_OPTIONS: [
      extraEnv.NODE_OPTIONS ?? process.env.NODE_OPTIONS ?? "",
      `--import=${fileURLToPath(new URL("./memory-hook.mjs", import.meta.url))}`,
    ].join(" "),
  });
  const ownLoad = new OwnLoad();
  const system = await startSystem();
  process.env = saved;
  const pids = { "identity-server": system.pids.identityServer, portal: system.pids.portal };
  const rss = new RssSampler(pids);
  const parts = new PartsSampler(pids);
  const report = (phase: string, extra: string) => {
    const peaks = parts.take();
    console.log(`  ${phase}: ${extra}`);
    for (const [name, pid] of Object.entries(pids)) {
      const peak = peaks.get(name);
      if (!peak) continue;
      console.log(`    ${name} ${describeParts(peak)}`);
      console.log(`      V8 spaces (MB): ${spacesNear(probeDir, name, pid, peak.t)}`);
    }
  };
  try {
    const firstStage = scaleStages[0] ?? 1000;
    const importedHash = await hashPassword(benchPassword);
    const identityIds = await seedIdentities(0, firstStage, importedHash);
    const browserCookies = await browserLogin(emailOf(0));
    const hash = await measureHashLimit();
    const client = await createClient();
    let counter = 0;
    const targets = {
      sessionCookie: cookieHeader(browserCookies),
      nextIdentifier: () => emailOf(counter++ % firstStage),
      accessToken: await clientCredentialsToken(client),
      client,
    };
    report("start and seeding", `load ${describeLoad(ownLoad.reading())}`);
    if (phases.has("server")) {
      const server = await serverFigures(targets, hash, loadSeconds);
      report(
        "server",
        `whoami ${server.whoami.perSecond.toFixed(0)}/s, logins ${server.login.perSecond.toFixed(0)}/s; load ${describeLoad(ownLoad.reading())}`,
      );
    }
    if (phases.has("portal-traffic")) {
      const portal = await portalTraffic(targets.nextIdentifier, hash.cores, loadSeconds);
      report(
        "portal-traffic",
        `views ${portal.portalViews.perSecond.toFixed(0)}/s, no-JS sign-ins ${portal.portalSignIns.perSecond.toFixed(1)}/s; load ${describeLoad(ownLoad.reading())}`,
      );
    }
    if (phases.has("mixed")) {
      const mixed = await mixedTraffic(targets, rss, mixedSeconds);
      report(
        "mixed",
        `whoami ${mixed.whoami.perSecond.toFixed(0)}/s, introspect ${mixed.introspect.perSecond.toFixed(0)}/s, logins ${mixed.login.perSecond.toFixed(1)}/s, token ${mixed.token.perSecond.toFixed(0)}/s, errors ${mixed.errors}; load ${describeLoad(ownLoad.reading())}`,
      );
    }
    if (phases.has("scaling")) {
      const points = await scaling(
        system.dataDir,
        importedHash,
        { identityIds },
        scaleStages,
        scaleSeconds,
      );
      report(
        "scaling",
        `${points.map((p) => `${p.identities}: whoami ${p.whoami.perSecond.toFixed(0)}/s, logins ${p.login.perSecond.toFixed(0)}/s`).join("; ")}; load ${describeLoad(ownLoad.reading())}`,
      );
    }
    const whole = rss.peakSinceStart();
    console.log(
      `  whole-run peak: ${Object.entries(whole)
        .map(([name, bytes]) => `${name} ${mb(bytes)}`)
        .join(", ")}`,
    );
  } finally {
    rss.stop();
    parts.stop();
    ownLoad.stop();
    await system.stop();
    rmSync(probeDir, { recursive: true, force: true });
  }
}

for (let round = 1; round <= rounds; round++) {
  for (const variant of variants) {
    console.log(`round ${round}, [${variant || "as start-all starts them"}]`);
    await run(variant);
  }
}
