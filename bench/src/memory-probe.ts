// `npm run memory-probe -w bench`: where the servers' memory goes. Starts the system as the bench
// does (scripts/start-all.ts), seeds PROBE_IDENTITIES (default 1000) identities, runs the bench's
// mixed traffic for PROBE_SECONDS (default 60) and prints, per server: RSS when idle, peak RSS
// during the load, VmHWM, and /proc/<pid>/smaps_rollup (anonymous vs file-backed) plus
// process.memoryUsage() (heap, external, array buffers) at the peak, logged from inside each
// server by memory-hook.mjs. PROBE_PORTAL=1 first runs the bench's portal phase (server renders
// of every screen, Chromium, Lighthouse) and prints the servers' peak RSS during it; PROBE_PRELOAD=1
// runs the bench's single-kind identity-server loads (5 s each) before the mixed traffic. BENCH_PORT_BASE
// moves the ports.
import { measureHashLimit } from "./argon2-limit.ts";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { hashPassword } from "../../identity-server/src/methods/password/hasher.ts";
import {
  benchPassword,
  browserLogin,
  clientCredentialsToken,
  cookieHeader,
  createClient,
  emailOf,
  seedIdentities,
} from "./identity-api.ts";
import { runLighthouse } from "./lighthouse.ts";
import { RssSampler, statusBytes } from "./memory.ts";
import { mixedTraffic } from "./mixed-traffic.ts";
import { urls } from "./ports.ts";
import { portalFigures } from "./portal-figures.ts";
import { serverFigures } from "./server-figures.ts";
import { startSystem } from "./system.ts";

const identities = Number(process.env.PROBE_IDENTITIES ?? 1000);
const seconds = Number(process.env.PROBE_SECONDS ?? 60);
const probeDir = mkdtempSync(path.join(tmpdir(), "memory-probe-"));
process.env.MEMORY_PROBE_DIR = probeDir;
process.env.NODE_OPTIONS = [
  process.env.NODE_OPTIONS ?? "",
  `--import=${fileURLToPath(new URL("./memory-hook.mjs", import.meta.url))}`,
].join(" ");

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

function rollup(pid: number): Record<string, number> {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^(\w+):\s+(\d+) kB/gm)) out[m[1] ?? ""] = Number(m[2]) * 1024;
  return out;
}

/** The largest anonymous mappings (no name), e.g. V8 spaces, malloc arenas, wasm memory. */
function bigMappings(pid: number): string[] {
  const text = readFileSync(`/proc/${pid}/smaps`, "utf8");
  const rows: { name: string; rss: number }[] = [];
  let name = "";
  for (const line of text.split("\n")) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) name = header[1] || "[anon]";
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) rows.push({ name, rss: Number(rss[1]) * 1024 });
  }
  const byName = new Map<string, number>();
  for (const r of rows) byName.set(r.name, (byName.get(r.name) ?? 0) + r.rss);
  const anonSizes = rows.filter((r) => r.name === "[anon]").map((r) => r.rss);
  anonSizes.sort((a, b) => b - a);
  return [
    ...[...byName]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([n, rss]) => `${mb(rss).padStart(9)}  ${n}`),
    `   largest anonymous mappings: ${anonSizes.slice(0, 8).map(mb).join(", ")}`,
  ];
}

function inside(folder: string, pid: number) {
  const file = readdirSync(probeDir).find((f) => f === `${folder}-${pid}.jsonl`);
  if (!file) return undefined;
  const lines = readFileSync(path.join(probeDir, file), "utf8").trim().split("\n");
  const samples = lines.map((l) => JSON.parse(l) as Record<string, number>);
  return samples.reduce((a, b) => ((b.rss ?? 0) > (a.rss ?? 0) ? b : a));
}

const system = await startSystem();
const pids = {
  "identity-server": system.pids.identityServer,
  portal: system.pids.portal,
  "demo-portal": system.pids.demoPortal,
};
const sampler = new RssSampler(pids);
try {
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = Object.fromEntries(
    Object.entries(pids).map(([n, pid]) => [n, statusBytes(pid, "VmRSS")]),
  );
  const importedHash = await hashPassword(benchPassword);
  await seedIdentities(0, identities, importedHash);
  const browserCookies = await browserLogin(emailOf(0));
  if (process.env.PROBE_PORTAL === "1") {
    sampler.reset();
    await portalFigures(
      [
        { path: "/en/login" },
        { path: "/en/registration" },
        { path: "/en/recovery" },
        { path: "/en/verification" },
        { path: "/en/settings", cookies: browserCookies },
      ],
      40,
    );
    // Lighthouse now and then fails to record a trace (NO_NAVSTART); the renders still count.
    await runLighthouse(`${urls.portal}/en/login`).catch((error: unknown) =>
      console.log(String(error)),
    );
    const peaks = sampler.peak();
    console.log(
      `portal phase peaks: ${Object.entries(peaks)
        .map(([name, bytes]) => `${name} ${mb(bytes)}`)
        .join(", ")}`,
    );
  }
  const client = await createClient();
  const accessToken = await clientCredentialsToken(client);
  let counter = 0;
  const targets = {
    sessionCookie: cookieHeader(browserCookies),
    nextIdentifier: () => emailOf(counter++ % identities),
    accessToken,
    client,
  };
  if (process.env.PROBE_PRELOAD === "1") {
    sampler.reset();
    await serverFigures(targets, await measureHashLimit(), 5);
    console.log(`preload peak: identity-server ${mb(sampler.peak()["identity-server"] ?? 0)}`);
  }
  const mixed = await mixedTraffic(targets, sampler, seconds);
  const peakAll = sampler.peakSinceStart();
  console.log(
    `${identities} identities, ${seconds} s mixed: whoami ${mixed.whoami.perSecond.toFixed(0)}/s, introspect ${mixed.introspect.perSecond.toFixed(0)}/s, logins ${mixed.login.perSecond.toFixed(1)}/s, token ${mixed.token.perSecond.toFixed(1)}/s, errors ${mixed.errors}`,
  );
  for (const [name, pid] of Object.entries(pids)) {
    const r = rollup(pid);
    const m = inside(name, pid);
    console.log(
      `\n${name}: idle ${mb(idle[name] ?? 0)}, mixed peak ${mb(mixed.peakRssBytes[name] ?? 0)}, whole-run peak ${mb(peakAll[name] ?? 0)}, VmHWM ${mb(statusBytes(pid, "VmHWM"))}, now ${mb(statusBytes(pid, "VmRSS"))}`,
    );
    console.log(
      `  now: anon ${mb(r.Anonymous ?? 0)}, file ${mb((r.Rss ?? 0) - (r.Anonymous ?? 0))}`,
    );
    if (m)
      console.log(
        `  at its peak (inside): rss ${mb(m.rss ?? 0)}, heapTotal ${mb(m.heapTotal ?? 0)}, heapUsed ${mb(m.heapUsed ?? 0)}, external ${mb(m.external ?? 0)}, arrayBuffers ${mb(m.arrayBuffers ?? 0)}`,
      );
    for (const line of bigMappings(pid)) console.log(`  ${line}`);
  }
} finally {
  sampler.stop();
  await system.stop();
  rmSync(probeDir, { recursive: true, force: true });
}
