// `node bench/src/portal-probe.ts`: only the bench's portal rows (portal-traffic.ts: /en/login
// page views and no-JS sign-ins through the portal beside the identity API, the React render
// without the identity call) and the portal's peak RSS during them, without the rest of the
// bench. Starts the system as the bench does, seeds PROBE_IDENTITIES (default 200) identities,
// runs each load for PROBE_SECONDS (default 10), first page views and direct flows alone with the
// CPU each costs the portal and the identity server. PROBE_ROUNDS (default 1) repeats the loads, for
// memory that grows over a longer run. BENCH_PORT_BASE moves the ports.
import { availableParallelism } from "node:os";
import { hashPassword } from "../../identity-server/src/methods/password/hasher.ts";
import { benchPassword, emailOf, seedIdentities } from "./identity-api.ts";
import { readFileSync } from "node:fs";
import { runSequence, type Step } from "./browser-sequences.ts";
import { RssSampler } from "./memory.ts";
import { urls } from "./ports.ts";
import { portalTraffic } from "./portal-traffic.ts";
import { median } from "./stats.ts";
import { startSystem } from "./system.ts";

const identities = Number(process.env.PROBE_IDENTITIES ?? 200);
const seconds = Number(process.env.PROBE_SECONDS ?? 10);
const rounds = Number(process.env.PROBE_ROUNDS ?? 1);
/** The page view and the direct flow creation of portal-traffic.ts, alone. */
const pageView: Step[] = [
  { to: () => ({ path: "/en/login" }), headers: { accept: "text/html" }, expect: (s) => s === 200 },
];
const directFlow: Step = {
  to: () => ({ path: "/self-service/login/browser" }),
  headers: { accept: "application/json" },
  expect: (s) => s === 200,
};

/** CPU time (user + system, ms) a process has used so far (Linux /proc; 10 ms ticks). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const mb = (bytes: number | undefined) => `${((bytes ?? 0) / 2 ** 20).toFixed(1)} MB`;

const system = await startSystem();
const sampler = new RssSampler({ portal: system.pids.portal });
try {
  console.log(`portal idle RSS ${mb(sampler.peak().portal)}`);
  await seedIdentities(0, identities, await hashPassword(benchPassword));
  let counter = 0;
  const next = () => emailOf(counter++ % identities);
  // CPU per view: the portal's and the identity server's, beside the identity server's per flow
  // created directly (what a view costs the portal beyond its identity call).
  const { portal, identityServer } = system.pids;
  const perUnit = async (base: string, steps: typeof pageView) => {
    const before = { portal: cpuMs(portal), identity: cpuMs(identityServer) };
    const load = await runSequence(base, steps, 10, seconds);
    const units = load.perSecond * seconds;
    return {
      perSecond: Math.round(load.perSecond),
      portalCpuMs: ((cpuMs(portal) - before.portal) / units).toFixed(2),
      identityCpuMs: ((cpuMs(identityServer) - before.identity) / units).toFixed(2),
    };
  };
  // Server time per view beside the identity call alone: sequential requests, medians.
  const sequential = async (url: string, accept: string, encoding = "identity") => {
    const times: number[] = [];
    for (let i = 0; i < 300; i++) {
      const started = performance.now();
      const headers = { accept, "accept-encoding": encoding };
      const answer = await fetch(url, { headers, redirect: "manual" });
      await answer.text();
      if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
      if (i >= 50) times.push(performance.now() - started);
    }
    return median(times);
  };
  const viewMs = await sequential(`${urls.portal}/en/login`, "text/html");
  // As a browser asks for it (fetch's own default): compressed.
  const gzipMs = await sequential(`${urls.portal}/en/login`, "text/html", "gzip, deflate, br");
  const flowMs = await sequential(
    `${urls.identityPublic}/self-service/login/browser`,
    "application/json",
  );
  console.log(
    JSON.stringify({
      sequentialMedianMs: {
        view: viewMs.toFixed(2),
        viewCompressed: gzipMs.toFixed(2),
        flow: flowMs.toFixed(2),
        beyondFlow: (viewMs - flowMs).toFixed(2),
      },
    }),
  );
  await perUnit(urls.portal, pageView);
  console.log(JSON.stringify({ views: await perUnit(urls.portal, pageView) }));
  console.log(JSON.stringify({ directFlows: await perUnit(urls.identityPublic, [directFlow]) }));
  console.log(`portal peak RSS after the views: ${mb(sampler.peakSinceStart().portal)}`);
  for (let round = 1; round <= rounds; round++) {
    const figures = await portalTraffic(next, availableParallelism(), seconds);
    const { portalViews, directFlows, portalSignIns, directLogins, render } = figures;
    console.log(
      JSON.stringify({
        round,
        views: `${portalViews.perSecond.toFixed(0)}/s p50 ${portalViews.p50} ms (errors ${portalViews.errors})`,
        directFlows: `${directFlows.perSecond.toFixed(0)}/s p50 ${directFlows.p50} ms`,
        viewRatio: figures.viewRatio.toFixed(3),
        signIns: `${portalSignIns.perSecond.toFixed(1)}/s p50 ${portalSignIns.p50} ms (errors ${portalSignIns.errors})`,
        directLogins: `${directLogins.perSecond.toFixed(1)}/s`,
        signInRatio: figures.signInRatio.toFixed(3),
        render,
        portalPeakRss: mb(sampler.peakSinceStart().portal),
      }),
    );
  }
} finally {
  sampler.stop();
  await system.stop();
}
