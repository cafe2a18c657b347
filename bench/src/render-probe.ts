// The portal's server render of /en/login without the identity service: the portal's own build
// (portal/build/server) run in this process through React Router's request handler, with every
// loader answering the data it gave once for a real flow. What is timed is React Router's
// server pipeline and entry.server's React render to the last byte, nothing over the network.
// Run by render-figures.ts as a child process with the portal's environment; prints one JSON line.
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { loadBuild, loadContextFactory } from "../../portal/app/http/load-build.server.ts";
import type { RequestInfo } from "../../portal/app/http/request-context.ts";
import { median, quantile, round } from "./stats.ts";

const portalUrl = process.env.PORTAL_PUBLIC_URL ?? "";
const samples = Number(process.env.RENDER_PROBE_SAMPLES ?? 200);
const warmUp = 50;

const build = await loadBuild(new URL("../../portal/", import.meta.url));
const createLoadContext = loadContextFactory<RequestInfo, RouterContextProvider>(build);
/** The portal declares React Router's middleware context type for itself; the bench cannot. */
type HandlerContext = Parameters<ReturnType<typeof createRequestHandler>>[1];
const context = () =>
  createLoadContext({
    nonce: "bench",
    forwardedFor: "127.0.0.1",
    correlationId: undefined,
  }) as unknown as HandlerContext;

type Loader = (...args: unknown[]) => unknown;
/** The build with each route's loader replaced by `wrap(id, loader)`. */
function withLoaders(wrap: (id: string, loader: Loader) => Loader): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      if (!route) return [id, route];
      const module = { ...route.module } as Record<string, unknown>;
      if (typeof module.loader === "function") module.loader = wrap(id, module.loader as Loader);
      return [id, { ...route, module }];
    }),
  );
  return { ...build, routes } as ServerBuild;
}

// 1. One real page view, recording what each loader answered.
const recorded = new Map<string, unknown>();
const recording = createRequestHandler(
  withLoaders((id, loader) => async (...args: unknown[]) => {
    const answer = await loader(...args);
    recorded.set(id, answer);
    return answer;
  }),
  "production",
);
const created = await recording(new Request(`${portalUrl}/en/login`), context());
const pageUrl = new URL(created.headers.get("location") ?? "", portalUrl);
const cookie = created.headers
  .getSetCookie()
  .map((c) => c.split(";")[0])
  .join("; ");
const page = () => new Request(pageUrl, { headers: { cookie, accept: "text/html" } });
recorded.clear();
const real = await recording(page(), context());
const realHtml = await real.text();
if (real.status !== 200 || !realHtml.includes("csrf_token")) {
  throw new Error(`the recorded /en/login answered ${real.status}`);
}

// 2. The same page with every loader answering its recorded data: React alone.
const replaying = createRequestHandler(
  withLoaders((id, loader) => (recorded.has(id) ? () => recorded.get(id) : loader)),
  "production",
);
const render = async () => {
  const started = performance.now();
  const response = await replaying(page(), context());
  const html = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200 || html.length < realHtml.length / 2) {
    throw new Error(`the replayed /en/login answered ${response.status}, ${html.length} bytes`);
  }
  return ms;
};
for (let i = 0; i < warmUp; i++) await render();
const times: number[] = [];
const cpuBefore = process.cpuUsage();
for (let i = 0; i < samples; i++) times.push(await render());
const cpu = process.cpuUsage(cpuBefore);

const figures = {
  path: "/en/login",
  samples,
  medianMs: round(median(times)),
  p95Ms: round(quantile(times, 0.95)),
  cpuMsPerRender: round((cpu.user + cpu.system) / 1000 / samples),
  htmlBytes: realHtml.length,
};
process.stdout.write(`${JSON.stringify(figures)}\n`);
