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
  /** All JavaScript fetched once the person has reached the page's first field. */
  usedJsGzipBytes: number;
  render: { samples: number; medianMs: number; p95Ms: number };
}

const sum = (files: Set<string>): number => [...files].reduce((n, f) => n + gzipSize(f), 0);

/** Bytes referenced by the SSR HTML, then `samples` sequential timed GETs of the flow's URL. */
async function serverSide(screen: Screen, samples: number) {
  const cookies: Cookies = new Map(screen.cookies ?? []);
  const page = await fetchPage(`${urls.portal}${screen.path}`, cookies);
  const scripts = scriptsOf(page.html);
  const styles = stylesheetsOf(page.html);
  // The screen's URL as a browser opens it: without ?flow= a view creates its flow and renders
  // it in the same response (a fresh flow each, issue 20's server time per sign-in page view).
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
      const bodies = new Map<string, Promise<Buffer | undefined>>();
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
        // A body still arriving when the page closes is not counted (and must not reject unseen).
        if (/\.(js|css)$/.test(pathname) && response.ok()) {
          bodies.set(
            pathname,
            response.body().catch(() => undefined),
          );
        }
      });
      await page.goto(`${urls.portal}${screen.path}`, { waitUntil: "load" });
      // Hydrated: React Router's client router exists; then the lazy chunks it starts have
      // settled: no script or stylesheet in flight or started for a second. (Not "networkidle":
      // in Chromium the session check's proxied whoami, once answered, can stay "in flight".)
      // A function, not a string: Playwright evaluates a string with eval, which the portal's CSP refuses.
      await page.waitForFunction(() => "__reactRouterDataRouter" in globalThis);
      const untilSettled = async () => {
        const deadline = performance.now() + 30_000;
        while (assets.pending > 0 || performance.now() - assets.lastChange < 1000) {
          if (performance.now() > deadline)
            throw new Error(`${screen.path}: scripts still loading`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      const totals = async () => {
        const sum = { jsGzipBytes: 0, jsFiles: 0, cssGzipBytes: 0, cssFiles: 0 };
        for (const [pathname, pending] of bodies) {
          const body = await pending;
          if (!body) continue;
          const gzip = gzipSync(body, { level: 9 }).length;
          if (pathname.endsWith(".js")) {
            sum.jsGzipBytes += gzip;
            sum.jsFiles++;
          } else {
            sum.cssGzipBytes += gzip;
            sum.cssFiles++;
          }
        }
        return sum;
      };
      await untilSettled();
      const { jsGzipBytes, jsFiles, cssGzipBytes, cssFiles } = await totals();
      // What waits for the person (ui/first-interaction.ts) loads once they reach the first field.
      const field = page.locator("main input:enabled:visible").first();
      if ((await field.count()) > 0) await field.click();
      await untilSettled();
      const used = await totals();
      await context.close();
      const server = await serverSide(screen, samples);
      out.push({
        path: screen.path,
        html: server.html,
        fetched: { jsGzipBytes, jsFiles, cssGzipBytes, cssFiles },
        usedJsGzipBytes: used.jsGzipBytes,
        render: server.render,
      });
    }
  } finally {
    await browser.close();
  }
  return out;
}
