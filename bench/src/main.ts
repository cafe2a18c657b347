// `npm run bench`: starts the whole system on its own ports with a fresh data dir, measures it,
// stops it, prints a table and writes bench/results.json and bench/RESULTS.md. See bench/README.md.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { format } from "prettier";
import { hashPassword } from "../../identity-server/src/methods/password/hasher.ts";
import { budgetBytes } from "../../portal/scripts/measure-js.ts";
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
import { runLighthouse } from "./lighthouse.ts";
import { coreCount, describeLoad, judgeLoad, loadStatement, OwnLoad } from "./machine-load.ts";
import { RssSampler, statusBytes } from "./memory.ts";
import { mixedTraffic } from "./mixed-traffic.ts";
import { urls } from "./ports.ts";
import { portalFigures } from "./portal-figures.ts";
import { portalTraffic } from "./portal-traffic.ts";
import { rows } from "./rows.ts";
import { judgeRatios, machine, markdownTable, printTable, writeResults } from "./report.ts";
import { scaling } from "./scaling.ts";
import { serverFigures } from "./server-figures.ts";
import { serverTimeFigures } from "./server-time.ts";
import { startSystem } from "./system.ts";
import { usableFigures } from "./usable-figures.ts";

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const settings = {
  loadSeconds: setting("BENCH_LOAD_SECONDS", 10),
  mixedSeconds: setting("BENCH_MIXED_SECONDS", 60),
  scaleSeconds: setting("BENCH_SCALE_SECONDS", 8),
  renderSamples: setting("BENCH_RENDER_SAMPLES", 40),
  scaleStages: (process.env.BENCH_SCALE_STAGES ?? "1000,10000,100000").split(",").map(Number),
};

const startedAt = performance.now();
const step = (text: string) =>
  console.log(`[${((performance.now() - startedAt) / 1000).toFixed(0).padStart(3)} s] ${text}`);

const ownLoad = new OwnLoad();
const loadAtStart = ownLoad.reading();
step(`load average at start (1 / 5 / 15 min): ${describeLoad(loadAtStart)}`);
step("starting the system (scripts/start-all.ts)");
const system = await startSystem();
const sampler = new RssSampler({
  "identity-server": system.pids.identityServer,
  portal: system.pids.portal,
  "demo-portal": system.pids.demoPortal,
});
try {
  const firstStage = settings.scaleStages[0] ?? 1000;
  step(`seeding ${firstStage} identities`);
  const importedHash = await hashPassword(benchPassword);
  const identityIds = await seedIdentities(0, firstStage, importedHash);
  const browserCookies = await browserLogin(emailOf(0));

  step("portal: bytes per screen (SSR HTML and Chromium) and server-render time");
  const screens = await portalFigures(
    [
      { path: "/en/login" },
      { path: "/en/registration" },
      { path: "/en/recovery" },
      { path: "/en/verification" },
      { path: "/en/settings", cookies: browserCookies },
    ],
    settings.renderSamples,
  );

  step("Lighthouse /en/login");
  const lighthouse = await runLighthouse(`${urls.portal}/en/login`);

  step("usable time and Lighthouse: sign-in and registration against static copies");
  const usable = await usableFigures();

  step("server time per sign-in page view beside its identity call (the portal's metrics)");
  const serverTime = await serverTimeFigures();

  step("argon2id hash time (the server's parameters)");
  const hash = await measureHashLimit();

  const client = await createClient();
  const accessToken = await clientCredentialsToken(client);
  let loginCounter = 0;
  const targets = {
    sessionCookie: cookieHeader(browserCookies),
    nextIdentifier: () => emailOf(loginCounter++ % firstStage),
    accessToken,
    client,
  };
  step("identity server: bare Fastify, whoami, logins, introspect, token");
  sampler.reset();
  const server = await serverFigures(targets, hash, settings.loadSeconds);

  step("the portal as people use it: page views and no-JS sign-ins beside the identity API");
  const portal = await portalTraffic(targets.nextIdentifier, hash.cores, settings.loadSeconds);

  step(`mixed traffic for ${settings.mixedSeconds} s at 100 connections`);
  const mixed = await mixedTraffic(targets, sampler, settings.mixedSeconds);

  step(`scaling: ${settings.scaleStages.join(", ")} identities and sessions`);
  const scale = await scaling(
    system.dataDir,
    importedHash,
    { identityIds },
    settings.scaleStages,
    settings.scaleSeconds,
  );
  const memory = {
    peakRssWholeRunBytes: sampler.peakSinceStart(),
    identityServerVmHwmBytes: statusBytes(system.pids.identityServer, "VmHWM"),
  };
  sampler.stop();
  // Before stopping: the servers' last minute of work is the bench's own share of the load.
  const loadAtEnd = ownLoad.reading();
  ownLoad.stop();
  step(`load average at end (1 / 5 / 15 min): ${describeLoad(loadAtEnd)}`);
  const load = judgeLoad(coreCount(), loadAtStart, loadAtEnd);
  step("stopping the system");
  await system.stop();

  const totalSeconds = (performance.now() - startedAt) / 1000;
  const figures = {
    screens,
    lighthouse,
    hash,
    server,
    portal,
    mixed,
    scale,
    memory,
    usable,
    serverTime,
  };
  const table = judgeRatios(rows(figures, budgetBytes), load.busy);
  console.log("");
  printTable(table);
  console.log(`\nWhole run: ${totalSeconds.toFixed(0)} s`);
  console.log(
    `Load average (1 / 5 / 15 min) at start ${describeLoad(load.start)}, at end ${describeLoad(load.end)}.`,
  );
  console.log(loadStatement(load));

  const results = {
    date: new Date().toISOString(),
    machine: machine(),
    durationSeconds: Math.round(totalSeconds),
    settings,
    load,
    figures,
    table,
  };
  writeResults(fileURLToPath(new URL("../results.json", import.meta.url)), results);
  // Formatted as `npm run lint` expects it.
  const markdown = await format(
    `# Benchmark results\n\n${results.date.slice(0, 10)}, ${results.machine.cpuModel} × ${results.machine.cores} cores, ${(results.machine.ramBytes / 2 ** 30).toFixed(0)} GiB RAM, Node ${results.machine.node}; whole run ${results.durationSeconds} s (\`npm run bench\`, see bench/README.md).\n\nLoad average (1 / 5 / 15 min) at start ${describeLoad(load.start)}, at end ${describeLoad(load.end)}. ${loadStatement(load)}\n\n${markdownTable(table)}\n`,
    { parser: "markdown" },
  );
  writeFileSync(fileURLToPath(new URL("../RESULTS.md", import.meta.url)), markdown);
} catch (error) {
  ownLoad.stop();
  sampler.stop();
  await system.stop();
  throw error;
}
