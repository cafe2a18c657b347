// Issue 20: "server time per sign-in page view (a fresh flow each) at most the identity call plus
// 3 ms of render". Read from the portal's own Prometheus metrics (PORTAL_METRICS_PORT, a loopback
// listener the bench turns on; browsers never see any timing): the request histogram's time for
// GET /:lang/login and the identity-call histogram's time within those views, as sums over views
// made one after another on one connection (no other request in between), so a mean is exact
// rather than read off the histograms' buckets.
import { urls } from "./ports.ts";
import { atMost, info, ms, type Row } from "./report.ts";

export interface ServerTimeFigures {
  views: number;
  /** Mean time from the request's arrival until its answer was sent, per view. */
  serverMs: number;
  /** Mean time of the identity service's calls made during a view, per view. */
  identityMs: number;
  identityCallsPerView: number;
}

/** A histogram's `_sum` and `_count`, added over the series whose labels pass `wanted`. */
interface Totals {
  seconds: number;
  count: number;
}

type Labels = Record<string, string>;

function totals(text: string, name: string, wanted: (labels: Labels) => boolean): Totals {
  const out: Totals = { seconds: 0, count: 0 };
  const line = new RegExp(`^${name}_(sum|count)\\{([^}]*)\\} (\\S+)$`, "gm");
  for (const [, kind, labelText = "", value] of text.matchAll(line)) {
    const labels = Object.fromEntries(
      [...labelText.matchAll(/(\w+)="([^"]*)"/g)].map(([, key = "", v = ""]) => [key, v]),
    );
    if (!wanted(labels)) continue;
    if (kind === "sum") out.seconds += Number(value);
    else out.count += Number(value);
  }
  return out;
}

const loginView = (labels: Labels) =>
  labels.method === "GET" && /\/login$/.test(labels.route ?? "") && labels.status === "200";
const pageCall = (labels: Labels) => labels.endpoint !== "/api/kratos/*";

async function scrape(): Promise<{ views: Totals; identity: Totals }> {
  const text = await (await fetch(`${urls.portalMetrics}/metrics`)).text();
  return {
    views: totals(text, "portal_http_request_duration_seconds", loginView),
    identity: totals(text, "portal_identity_request_duration_seconds", pageCall),
  };
}

/** `views` sign-in page views without cookies (each creates its flow), one after another. */
export async function serverTimeFigures(views = 200): Promise<ServerTimeFigures> {
  // Warm-up: the first renders compile the page's code.
  for (let i = 0; i < 20; i++) await view();
  const before = await scrape();
  for (let i = 0; i < views; i++) await view();
  const after = await scrape();
  const counted = after.views.count - before.views.count;
  if (counted !== views) throw new Error(`the portal counted ${counted} of ${views} views`);
  const calls = after.identity.count - before.identity.count;
  return {
    views,
    serverMs: ((after.views.seconds - before.views.seconds) * 1000) / views,
    identityMs: ((after.identity.seconds - before.identity.seconds) * 1000) / views,
    identityCallsPerView: calls / views,
  };
}

async function view(): Promise<void> {
  const response = await fetch(`${urls.portal}/en/login`, { headers: { accept: "text/html" } });
  const html = await response.text();
  if (response.status !== 200 || !html.includes("csrf_token")) {
    throw new Error(`/en/login answered ${response.status}`);
  }
}

export function serverTimeRows(f: ServerTimeFigures): Row[] {
  return [
    info(
      `/en/login server time per view, a fresh flow each (${f.views}, one at a time) / identity calls within it (${f.identityCallsPerView} per view)`,
      `${ms(f.serverMs)} / ${ms(f.identityMs)}`,
    ),
    atMost("/en/login server time − identity call, per view", f.serverMs - f.identityMs, 3, ms),
  ];
}
