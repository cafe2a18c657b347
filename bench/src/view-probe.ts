// `node bench/src/view-probe.ts` (with the portal's environment and its build): the portal's
// whole server path of a /en/login page view with a fresh flow each — React Router's handler, the
// loaders, the identity client and entry.server's render — in this process, with the identity
// service's answers served from memory (a real Kratos login flow, a new id each time). Prints the
// CPU per view: what a view costs the portal beyond its identity call (issue 20: ≤ 3 ms).
import { readFileSync } from "node:fs";
import { createRequestHandler, type RouterContextProvider } from "react-router";
import { loadBuild, loadContextFactory } from "../../portal/app/http/load-build.server.ts";
import type { RequestInfo } from "../../portal/app/http/request-context.ts";
import { median } from "./stats.ts";

const samples = Number(process.env.VIEW_PROBE_SAMPLES ?? 1000);
const portalUrl = process.env.PORTAL_PUBLIC_URL ?? "http://localhost:3000";
const flowText = readFileSync(
  new URL("../../vendor/ory/flows/elements.login.1fa.password.initial.json", import.meta.url),
  "utf8",
);
const flow = JSON.parse(flowText) as { id: string };
let counter = 0;
globalThis.fetch = (input: string | URL | Request) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.pathname === "/self-service/login/browser") {
    const id = `00000000-0000-4000-8000-${String(counter++).padStart(12, "0")}`;
    const headers = new Headers({ "content-type": "application/json" });
    headers.append("set-cookie", `csrf_token_82b5=token${counter}; Path=/; HttpOnly; SameSite=Lax`);
    return Promise.resolve(new Response(flowText.replaceAll(flow.id, id), { headers }));
  }
  return Promise.resolve(new Response('{"error":{"code":401}}', { status: 401 }));
};

const build = await loadBuild(new URL("../../portal/", import.meta.url));
const createLoadContext = loadContextFactory<RequestInfo, RouterContextProvider>(build);
type HandlerContext = Parameters<ReturnType<typeof createRequestHandler>>[1];
const handle = createRequestHandler(build, "production");
const view = async () => {
  const context = createLoadContext({
    nonce: "bench",
    forwardedFor: "127.0.0.1",
    correlationId: undefined,
    pageAddress: {},
  }) as unknown as HandlerContext;
  const started = performance.now();
  const response = await handle(
    new Request(`${portalUrl}/en/login`, { headers: { accept: "text/html" } }),
    context,
  );
  const html = await response.text();
  if (response.status !== 200 || !html.includes("csrf_token")) {
    throw new Error(`/en/login answered ${response.status}`);
  }
  return performance.now() - started;
};
for (let i = 0; i < 200; i++) await view();
const times: number[] = [];
const before = process.cpuUsage();
for (let i = 0; i < samples; i++) times.push(await view());
const cpu = process.cpuUsage(before);
process.stdout.write(
  `${JSON.stringify({ samples, medianMs: median(times), cpuMsPerView: (cpu.user + cpu.system) / 1000 / samples })}\n`,
);
