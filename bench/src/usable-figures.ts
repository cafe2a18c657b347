// Issue 20: how soon the sign-in and registration forms take typing, against the limit: a static
// copy of the same rendered page (its scripts taken out), served by the same portal server from
// its static folder, measured in the same run. Also Lighthouse (mobile) for both.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { clientDir, fetchPage } from "../../portal/scripts/measure-js.ts";
import { runLighthouse, type LighthouseFigures } from "./lighthouse.ts";
import { urls } from "./ports.ts";
import { atLeast, atMost, info, ms, type Row } from "./report.ts";
import { median, round } from "./stats.ts";

/** The pages measured, and the input a person types into first. */
const pages = [
  { path: "/en/login", input: 'input[name="identifier"]' },
  { path: "/en/registration", input: 'input[name="traits.email"]' },
] as const;

/** Lighthouse's mobile throttling, applied to Chromium for the usable-time runs. */
const throttling = {
  latencyMs: 150,
  downloadBytesPerSecond: (1.6 * 1024 * 1024) / 8,
  uploadBytesPerSecond: (750 * 1024) / 8,
  cpuSlowdown: 4,
};
const runs = Number(process.env.BENCH_USABLE_RUNS ?? 5);

interface Side {
  url: string;
  /** Median time from navigation start until a typed character shows in the input. */
  usableMs: number;
  lighthouse: LighthouseFigures;
}

export interface UsablePage {
  path: string;
  portal: Side;
  staticCopy: Side;
}

/**
 * The page as rendered for a browser, without its scripts: a plain form, the same markup and
 * stylesheet. Written to the portal's static assets folder, so the same server (compression,
 * headers, connection handling) answers it.
 */
async function writeStaticCopy(pagePath: string): Promise<{ file: string; url: string }> {
  const { html } = await fetchPage(`${urls.portal}${pagePath}`);
  const plain = html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "")
    .replace(/<link rel="modulepreload"[^>]*>/g, "");
  const name = `bench-static${pagePath.replaceAll("/", "-")}.html`;
  const file = path.join(clientDir, "assets", name);
  writeFileSync(file, plain);
  return { file, url: `${urls.portal}/assets/${name}` };
}

/** One cold load under throttling: navigation start to the first typed character showing. */
async function usableOnce(browser: Browser, url: string, input: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: throttling.latencyMs,
      downloadThroughput: throttling.downloadBytesPerSecond,
      uploadThroughput: throttling.uploadBytesPerSecond,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttling.cpuSlowdown });
    await page.goto(url, { waitUntil: "commit" });
    const field = page.locator(input);
    // Typing until a character stays: a keystroke waits for a busy main thread (hydration), and
    // a value a hydrating page throws away does not count.
    for (let attempt = 0; attempt < 50; attempt++) {
      await field.click();
      await page.keyboard.type("a");
      // The page's own clock: milliseconds since its navigation started.
      if ((await field.inputValue()).endsWith("a")) {
        return Number(await page.evaluate("performance.now()"));
      }
    }
    throw new Error(`${url}: ${input} never took typing`);
  } finally {
    await context.close();
  }
}

/** Medians of `runs` cold loads of each side, alternating, so a burst of other work on the
 * machine hits both alike. */
async function usableMs(
  browser: Browser,
  urls: { portal: string; copy: string },
  input: string,
): Promise<{ portal: number; copy: number }> {
  const portal: number[] = [];
  const copy: number[] = [];
  for (let i = 0; i < runs; i++) {
    portal.push(await usableOnce(browser, urls.portal, input));
    copy.push(await usableOnce(browser, urls.copy, input));
  }
  return { portal: round(median(portal)), copy: round(median(copy)) };
}

export async function usableFigures(): Promise<UsablePage[]> {
  const copies = await Promise.all(pages.map((page) => writeStaticCopy(page.path)));
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update"],
  });
  const out: UsablePage[] = [];
  try {
    for (const [index, page] of pages.entries()) {
      const copy = copies[index];
      if (!copy) throw new Error("no static copy");
      const portalUrl = `${urls.portal}${page.path}`;
      const usable = await usableMs(browser, { portal: portalUrl, copy: copy.url }, page.input);
      out.push({
        path: page.path,
        portal: {
          url: portalUrl,
          usableMs: usable.portal,
          lighthouse: await runLighthouse(portalUrl),
        },
        staticCopy: {
          url: copy.url,
          usableMs: usable.copy,
          lighthouse: await runLighthouse(copy.url),
        },
      });
    }
  } finally {
    await browser.close();
    for (const copy of copies) rmSync(copy.file, { force: true });
  }
  return out;
}

const times = (n: number) => `${n.toFixed(2)}×`;

/** The table's rows: each figure with its ratio to the static copy, and the targets. */
export function usableRows(figures: UsablePage[]): Row[] {
  const out: Row[] = [];
  for (const { path: page, portal, staticCopy } of figures) {
    const p = portal.lighthouse;
    const s = staticCopy.lighthouse;
    out.push(
      info(
        `${page} usable (typed text shows), portal / static copy`,
        `${ms(portal.usableMs)} / ${ms(staticCopy.usableMs)}`,
      ),
      atMost(`${page} usable ÷ static copy`, portal.usableMs / staticCopy.usableMs, 1.1, times),
      info(`${page} Lighthouse FCP, portal / static copy`, `${ms(p.fcpMs)} / ${ms(s.fcpMs)}`),
      atMost(`${page} Lighthouse FCP ÷ static copy`, p.fcpMs / s.fcpMs, 1.1, times),
      info(`${page} Lighthouse LCP, portal / static copy`, `${ms(p.lcpMs)} / ${ms(s.lcpMs)}`),
      atMost(`${page} Lighthouse TBT (static copy ${ms(s.tbtMs)})`, p.tbtMs, 50, ms),
      atLeast(
        `${page} Lighthouse performance, mobile (static copy ${s.performanceScore})`,
        p.performanceScore,
        98,
        String,
      ),
    );
  }
  return out;
}
