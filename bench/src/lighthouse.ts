// Lighthouse 12 (its CLI, so chrome-launcher starts and stops Debian's Chromium) with the default
// config: mobile form factor, simulated throttling (slow 4G, 4x CPU slowdown).
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

export interface LighthouseFigures {
  url: string;
  config: string;
  performanceScore: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
}

interface Report {
  finalDisplayedUrl?: string;
  categories: { performance: { score: number } };
  audits: Record<string, { numericValue?: number }>;
}

/**
 * Lighthouse now and then fails to record its trace (`NO_NAVSTART`, "Please run Lighthouse again")
 * on a page that loads fine: one more attempt before the bench gives up.
 */
export async function runLighthouse(url: string): Promise<LighthouseFigures> {
  try {
    return await lighthouseOnce(url);
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    if (typeof stderr !== "string" || !stderr.includes("run Lighthouse again")) throw error;
    return lighthouseOnce(url);
  }
}

async function lighthouseOnce(url: string): Promise<LighthouseFigures> {
  const cli = path.join(
    path.dirname(createRequire(import.meta.url).resolve("lighthouse/package.json")),
    "cli/index.js",
  );
  const dir = mkdtempSync(path.join(tmpdir(), "portal-bench-lighthouse-"));
  const output = path.join(dir, "report.json");
  try {
    await promisify(execFile)(
      process.execPath,
      [
        cli,
        url,
        "--chrome-flags=--headless=new --no-sandbox --disable-background-networking --disable-component-update",
        "--only-categories=performance",
        "--output=json",
        `--output-path=${output}`,
        "--quiet",
      ],
      { env: { ...process.env, CHROME_PATH: "/usr/bin/chromium" }, maxBuffer: 16 << 20 },
    );
    const report = JSON.parse(readFileSync(output, "utf8")) as Report;
    const audit = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
    return {
      url: report.finalDisplayedUrl ?? url,
      config: "Lighthouse 12.8.2 default: mobile, simulated throttling",
      performanceScore: Math.round(report.categories.performance.score * 100),
      lcpMs: Math.round(audit("largest-contentful-paint")),
      fcpMs: Math.round(audit("first-contentful-paint")),
      tbtMs: Math.round(audit("total-blocking-time")),
      cls: audit("cumulative-layout-shift"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
