// The portal's figures: gzip bytes of the JavaScript and CSS each screen loads (as its SSR HTML
// references them, reusing portal/scripts/measure-js.ts, and as Chromium fetches them after
// hydration) and server-render time.
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { fetchPage, gzipSize, scriptsOf, stylesheetsOf } from "../../portal/scripts/measure-js.ts";
import { cookieHeader, type Cookies } from "./identity-api.ts";
import { urls } from "./ports.ts";
import { median, quantile, round } from "./stats.ts";

export interface Screen {
  path: string;
  /** Cookies of a signed-in browser, for screens that need a session. */
  cookies?: Cookies;
}

export interface ScreenFigures {
  path: string;
  html: { jsGzipBytes: number; jsFiles: number; cssGzipBytes: number; cssFiles: number };
  fetched: { jsGzipBytes: number; jsFiles: number; cssGzipBytes: number; cssFiles: number };
  render: { samples: number; medianMs: number; p95Ms: number };
}

const sum = (files: Set<string>): number => [...files].reduce((n, f) => n + gzipSize(f), 0);

/** Bytes referenced by the SSR HTML, then `samples` sequential timed GETs of the flow's URL. */
async function serverSide(screen: Screen, samples: number) {
  const cookies: Cookies = new Map(screen.cookies ?? []);
  const page = await fetchPage(`${urls.portal}${screen.path}`, cookies);
  const scripts = scriptsOf(page.html);
  const styles = stylesheetsOf(page.html);
  // The page after its flow-creating redirect: what a browser re-renders on reload or submit.
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const response = await fetch(page.url, { headers: { cookie: cookieHeader(cookies) } });
    await response.text();
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${page.url} answered ${response.status}`);
  }
  return {
    html: {
      jsGzipBytes: sum(scripts),
      jsFiles: scripts.size,
      cssGzipBytes: sum(styles),
      cssFiles: styles.size,
    },
    render: { samples, medianMs: round(median(times)), p95Ms: round(quantile(times, 0.95)) },
  };
}

export async function portalFigures(screens: Screen[], samples: number): Promise<ScreenFigures[]> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update"],
  });
  const out: ScreenFigures[] = [];
  try {
    for (const screen of screens) {
      const context = await browser.newContext();
      if (screen.cookies) {
        await context.addCookies(
          [...screen.cookies].map(([name, value]) => ({ name, value, url: urls.portal })),
        );
      }
      const page = await context.newPage();
      const bodies = new Map<string, Promise<Buffer>>();
      const assets = { pending: 0, lastChange: performance.now() };
      const isAsset = (url: string) => /\.(js|css)$/.test(new URL(url).pathname);
      const settled = (url: string) => {
        if (!isAsset(url)) return;
        assets.pending--;
        assets.lastChange = performance.now();
      };
      page.on("request", (request) => {
        if (!isAsset(request.url())) return;
        assets.pending++;
        assets.lastChange = performance.now();
      });
      page.on("requestfinished", (request) => settled(request.url()));
      page.on("requestfailed", (request) => settled(request.url()));
      page.on("response", (response) => {
        const { pathname } = new URL(response.url());
        if (/\.(js|css)$/.test(pathname) && response.ok()) bodies.set(pathname, response.body());
      });
      await page.goto(`${urls.portal}${screen.path}`, { waitUntil: "load" });
      // Hydrated: React Router's client router exists; then the lazy chunks it starts have
      // settled: no script or stylesheet in flight or started for a second. (Not "networkidle":
      // in Chromium the session check's proxied whoami, once answered, can stay "in flight".)
      // A function, not a string: Playwright evaluates a string with eval, which the portal's CSP refuses.
      await page.waitForFunction(() => "__reactRouterDataRouter" in globalThis);
      const deadline = performance.now() + 30_000;
      while (assets.pending > 0 || performance.now() - assets.lastChange < 1000) {
        if (performance.now() > deadline) throw new Error(`${screen.path}: scripts still loading`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      let jsGzipBytes = 0;
      let cssGzipBytes = 0;
      let jsFiles = 0;
      let cssFiles = 0;
      for (const [pathname, body] of bodies) {
        const gzip = gzipSync(await body, { level: 9 }).length;
        if (pathname.endsWith(".js")) {
          jsGzipBytes += gzip;
          jsFiles++;
        } else {
          cssGzipBytes += gzip;
          cssFiles++;
        }
      }
      await context.close();
      const server = await serverSide(screen, samples);
      out.push({
        path: screen.path,
        html: server.html,
        fetched: { jsGzipBytes, jsFiles, cssGzipBytes, cssFiles },
        render: server.render,
      });
    }
  } finally {
    await browser.close();
  }
  return out;
}
