// Which figure is checked against which target (DESIGN §6 and issue 8).
import type { HashFigures } from "./argon2-limit.ts";
import type { LighthouseFigures } from "./lighthouse.ts";
import type { MixedFigures } from "./mixed-traffic.ts";
import type { ScreenFigures } from "./portal-figures.ts";
import type { PortalTrafficFigures } from "./portal-traffic.ts";
import {
  atLeast,
  atLeastRatio,
  atMost,
  bytes,
  info,
  mb,
  ms,
  perSecond,
  type Row,
} from "./report.ts";
import type { ScalePoint } from "./scaling.ts";
import type { ServerFigures } from "./server-figures.ts";
import { serverTimeRows, type ServerTimeFigures } from "./server-time.ts";
import { usableRows, type UsablePage } from "./usable-figures.ts";

export interface Figures {
  screens: ScreenFigures[];
  lighthouse: LighthouseFigures;
  hash: HashFigures;
  server: ServerFigures;
  portal: PortalTrafficFigures;
  mixed: MixedFigures;
  scale: ScalePoint[];
  memory: { peakRssWholeRunBytes: Record<string, number>; identityServerVmHwmBytes: number };
  /** Issue 20: usable time and Lighthouse, portal against a static copy of the same page. */
  usable?: UsablePage[];
  /** Issue 20: the sign-in page's server time beyond its identity call. */
  serverTime?: ServerTimeFigures;
}

const ratio = (n: number) => n.toFixed(2);
const latency = (f: { p50: number; p99: number }) => `p50 ${ms(f.p50)}, p99 ${ms(f.p99)}`;
const memoryLimit = 200e6;
const lighthouseTarget = 95;

export function rows(f: Figures, jsBudget: number): Row[] {
  const out: Row[] = [];
  for (const s of f.screens) {
    if (s.path === "/en/login") {
      out.push(
        atMost(
          `${s.path} JS gzip, SSR HTML (${s.html.jsFiles} files)`,
          s.html.jsGzipBytes,
          jsBudget,
          bytes,
        ),
      );
      out.push(
        atMost(
          `${s.path} JS gzip, Chromium fetched (${s.fetched.jsFiles} files)`,
          s.fetched.jsGzipBytes,
          jsBudget,
          bytes,
        ),
      );
      out.push(
        info(
          `${s.path} JS gzip, Chromium fetched once the first field is reached`,
          bytes(s.usedJsGzipBytes),
        ),
      );
    } else if (s.path === "/en/settings") {
      // Issue 19: the JavaScript settings references at first paint, against the same budget.
      out.push(
        atMost(
          `${s.path} JS gzip, SSR HTML (${s.html.jsFiles} files)`,
          s.html.jsGzipBytes,
          jsBudget,
          bytes,
        ),
      );
      out.push(info(`${s.path} JS gzip, Chromium fetched`, bytes(s.fetched.jsGzipBytes)));
    } else {
      out.push(
        info(
          `${s.path} JS gzip, SSR HTML / fetched`,
          `${bytes(s.html.jsGzipBytes)} / ${bytes(s.fetched.jsGzipBytes)}`,
        ),
      );
    }
    out.push(
      info(
        `${s.path} CSS gzip, SSR HTML / fetched`,
        `${bytes(s.html.cssGzipBytes)} / ${bytes(s.fetched.cssGzipBytes)}`,
      ),
    );
    out.push(
      info(
        `${s.path} server render (${s.render.samples} GETs)`,
        `median ${ms(s.render.medianMs)}, p95 ${ms(s.render.p95Ms)}`,
      ),
    );
  }
  // Issue 19: a target of its own (simulated throttling, so the machine's speed decides little).
  out.push(
    atLeast(
      "Lighthouse /en/login performance (mobile)",
      f.lighthouse.performanceScore,
      lighthouseTarget,
      String,
    ),
  );
  out.push(info("Lighthouse /en/login LCP (mobile)", ms(f.lighthouse.lcpMs)));
  if (f.usable) out.push(...usableRows(f.usable));
  if (f.serverTime) out.push(...serverTimeRows(f.serverTime));

  const s = f.server;
  out.push(info("bare Fastify GET / (50 conn)", perSecond(s.bare.perSecond)));
  out.push(info("/sessions/whoami (50 conn)", perSecond(s.whoami.perSecond)));
  out.push(atLeastRatio("whoami ÷ bare Fastify", s.whoamiRatio, 0.5, ratio));
  out.push(atMost("whoami p99 at 50 connections", s.whoami.p99, 10, ms));
  out.push(
    info(
      `argon2id hash (server params): alone / ${f.hash.cores} at once`,
      `${ms(f.hash.hashMedianMs)} / ${ms(f.hash.hashTogetherMs)} → limit ${perSecond(f.hash.limitPerSecond)} (${perSecond(f.hash.limitAlonePerSecond)} from one alone)`,
    ),
  );
  out.push(
    info(
      `password logins (${s.login.connections} conn)`,
      `${perSecond(s.login.perSecond)}, ${latency(s.login)}`,
    ),
  );
  out.push(atLeastRatio("logins ÷ hash-bound limit", s.loginRatio, 0.8, ratio));
  out.push(
    info(
      `introspect (${s.introspect.connections} conn)`,
      `${perSecond(s.introspect.perSecond)}, ${latency(s.introspect)}`,
    ),
  );
  out.push(
    info(
      `token client_credentials (${s.token.connections} conn)`,
      `${perSecond(s.token.perSecond)}, ${latency(s.token)}`,
    ),
  );

  const p = f.portal;
  out.push(
    info(
      `/en/login page views via the portal (${p.viewConnections} conn)`,
      `${perSecond(p.portalViews.perSecond)}, ${latency(p.portalViews)}`,
    ),
  );
  out.push(
    info(
      `browser login flows created directly (${p.viewConnections} conn)`,
      `${perSecond(p.directFlows.perSecond)}, ${latency(p.directFlows)}`,
    ),
  );
  out.push(atLeastRatio("page views ÷ direct flow creation", p.viewRatio, 0.5, ratio));
  out.push(
    info(
      `no-JS sign-ins via the portal (${p.signInConnections} conn)`,
      `${perSecond(p.portalSignIns.perSecond)}, ${latency(p.portalSignIns)}`,
    ),
  );
  out.push(
    info(
      `browser logins directly (${p.signInConnections} conn)`,
      `${perSecond(p.directLogins.perSecond)}, ${latency(p.directLogins)}`,
    ),
  );
  out.push(atLeastRatio("no-JS sign-ins ÷ direct logins", p.signInRatio, 0.6, ratio));
  out.push(
    atMost(
      "portal: page views and sign-ins cut short (unexpected answer, socket)",
      p.portalViews.errors + p.portalSignIns.errors + p.directFlows.errors + p.directLogins.errors,
      0,
      String,
    ),
  );
  out.push(
    info(
      `/en/login React render, no identity call (${p.render.samples}, in-process)`,
      `median ${ms(p.render.medianMs)}, p95 ${ms(p.render.p95Ms)}, CPU ${ms(p.render.cpuMsPerRender)}`,
    ),
  );

  const m = f.mixed;
  out.push(atMost(`mixed ${m.seconds} s: errors (non-2xx + socket)`, m.errors, 0, String));
  for (const kind of ["whoami", "introspect", "login", "token"] as const) {
    out.push(
      info(
        `mixed: ${kind} (${m.connections[kind]} conn)`,
        `${perSecond(m[kind].perSecond)}, p99 ${ms(m[kind].p99)}`,
      ),
    );
  }
  for (const [name, peak] of Object.entries(m.peakRssBytes)) {
    out.push(atMost(`mixed: peak RSS ${name}`, peak, memoryLimit, mb));
  }
  for (const [name, peak] of Object.entries(f.memory.peakRssWholeRunBytes)) {
    out.push(atMost(`whole run: peak RSS ${name}`, peak, memoryLimit, mb));
  }

  for (const p of f.scale) {
    const n = p.identities.toLocaleString("en-US");
    out.push(
      info(
        `${n} identities: seeding time (identities / sessions)`,
        `${p.seedSeconds.identities.toFixed(1)} s / ${p.seedSeconds.sessions.toFixed(1)} s`,
      ),
    );
    out.push(
      info(
        `${n} identities: whoami (${p.whoami.connections} conn)`,
        `${perSecond(p.whoami.perSecond)}, ${latency(p.whoami)}`,
      ),
    );
    out.push(
      info(
        `${n} identities: login (${p.login.connections} conn)`,
        `${perSecond(p.login.perSecond)}, ${latency(p.login)}`,
      ),
    );
  }
  return out;
}
