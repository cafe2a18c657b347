/**
 * Sums the gzip (level 9) size of every JavaScript file a page (/en/login unless told) references:
 * the module preloads and module scripts of its server-rendered HTML. Builds nothing.
 *
 *   npx node portal/scripts/measure-js.ts http://localhost:3000/en/login   # from a running portal
 *   npx node portal/scripts/measure-js.ts                                 # from the build manifest
 *   npx node portal/scripts/measure-js.ts --page=settings                 # another page, likewise
 *   npx node portal/scripts/measure-js.ts http://localhost:3000/en/login --browser
 *
 * `--browser` also counts what the page loads after hydration (the session lifecycle, lazy
 * chunks): every .js response Chromium (/usr/bin/chromium, through the e2e's Playwright) receives
 * until the page has hydrated and the network is idle, like `npm run bench`. DESIGN §6's budget
 * ("all JavaScript it loads") applies to that figure.
 *
 * `npm run bench` imports the helpers below for every screen (and for CSS too).
 */
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const clientDir = fileURLToPath(new URL("../build/client", import.meta.url));
// DESIGN §6: 120 kB, decimal, of gzip JavaScript for /en/login.
export const budgetBytes = 120_000;

/** Route ids each page is made of, for the build manifest's figures (`--page=`). */
const pageRouteIds: Record<string, string[]> = {
  login: ["root", "routes/locale-layout", "routes/login/route"],
  // Issue 19: the same budget; its cards' code loads beside the hydration.
  settings: ["root", "routes/locale-layout", "routes/settings/route"],
};

if (import.meta.main) {
  const target = process.argv.slice(2).find((argument) => !argument.startsWith("--"));
  const browser = process.argv.includes("--browser");
  if (browser && !target) throw new Error("--browser needs the page's URL");
  const files =
    browser && target
      ? await filesFetchedByBrowser(target)
      : target
        ? await filesFromPage(target)
        : filesFromManifest(pageOption());
  if (browser) console.log("fetched by Chromium, including after hydration:");

  let total = 0;
  for (const file of [...files].sort()) {
    const size = gzipSize(file);
    total += size;
    console.log(`${(size / 1024).toFixed(1).padStart(7)} KiB  ${file}`);
  }
  console.log(
    `${(total / 1024).toFixed(1).padStart(7)} KiB  total gzip (level 9) for ${files.size} files (${total} bytes)`,
  );
  console.log(
    total <= budgetBytes
      ? `within the ${budgetBytes / 1000} kB budget`
      : `OVER the ${budgetBytes / 1000} kB budget by ${total - budgetBytes} bytes`,
  );
  if (total > budgetBytes) process.exitCode = 1;
}

/** gzip (level 9) bytes of a built client file, given by its URL path (e.g. /assets/x.js). */
export function gzipSize(file: string): number {
  return gzipSync(readFileSync(`${clientDir}${file}`), { level: 9 }).length;
}

/** The JavaScript files a page's server-rendered HTML references. */
export async function filesFromPage(url: string): Promise<Set<string>> {
  return scriptsOf((await fetchPage(url)).html);
}

/**
 * Fetches the page like a browser would: cookies kept (and added to `cookies`) across the
 * flow-creating redirect. Returns the final URL and its HTML.
 */
export async function fetchPage(
  url: string,
  cookies = new Map<string, string>(),
): Promise<{ url: string; html: string }> {
  let location = url;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(location, {
      redirect: "manual",
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const separator = pair.indexOf("=");
      cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
    }
    const next = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && next) {
      location = new URL(next, location).href;
      continue;
    }
    if (!response.ok) throw new Error(`${location} answered ${response.status}`);
    return { url: location, html: await response.text() };
  }
  throw new Error(`${url} redirected too often`);
}

/**
 * Every JavaScript file Chromium loads for a page until it has hydrated and the network is
 * idle, including chunks loaded after hydration (URL paths, e.g. /assets/x.js).
 */
export async function filesFetchedByBrowser(url: string): Promise<Set<string>> {
  // Playwright is the e2e workspace's dependency, not the portal's: loaded only here.
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update"],
  });
  try {
    const page = await browser.newPage();
    const files = new Set<string>();
    page.on("response", (response) => {
      const { pathname } = new URL(response.url());
      if (pathname.endsWith(".js") && response.ok()) files.add(pathname);
    });
    await page.goto(url, { waitUntil: "networkidle" });
    await page.waitForFunction("'__reactRouterDataRouter' in window");
    await page.waitForLoadState("networkidle");
    return files;
  } finally {
    await browser.close();
  }
}

/** Module preloads, module scripts and static imports of inline module scripts. */
export function scriptsOf(html: string): Set<string> {
  return matchesOf(html, [
    /<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g,
    /<script[^>]+type="module"[^>]+src="([^"]+\.js)"/g,
    /import[^"'()]*["'](\/assets\/[^"']+\.js)["']/g,
  ]);
}

/** Stylesheet links. */
export function stylesheetsOf(html: string): Set<string> {
  return matchesOf(html, [/<link[^>]+rel="stylesheet"[^>]+href="([^"]+\.css)"/g]);
}

function matchesOf(html: string, patterns: RegExp[]): Set<string> {
  const files = new Set<string>();
  for (const pattern of patterns) {
    for (const match of html.matchAll(pattern)) if (match[1]) files.add(match[1]);
  }
  return files;
}

/** `--page=<name>` (login by default): which page the build manifest's figures are for. */
function pageOption(): string[] {
  const name = process.argv.find((argument) => argument.startsWith("--page="))?.slice(7) ?? "login";
  const routeIds = pageRouteIds[name];
  if (!routeIds) {
    throw new Error(`--page=${name}: one of ${Object.keys(pageRouteIds).join(", ")}`);
  }
  return routeIds;
}

/** Without a running portal: React Router's browser manifest names each route's module and imports. */
function filesFromManifest(routeIds: string[]): Set<string> {
  const manifestFile = readdirSync(`${clientDir}/assets`).find((name) =>
    /^manifest-.*\.js$/.test(name),
  );
  if (!manifestFile)
    throw new Error("no build/client/assets/manifest-*.js; run `npm run build -w portal`");
  const source = readFileSync(`${clientDir}/assets/${manifestFile}`, "utf8");
  const manifest: unknown = JSON.parse(source.slice(source.indexOf("=") + 1).replace(/;\s*$/, ""));
  const files = new Set<string>();
  const add = (entry: unknown) => {
    if (!isModuleEntry(entry)) throw new Error("unexpected manifest shape");
    files.add(entry.module);
    for (const imported of entry.imports ?? []) files.add(imported);
  };
  if (!isRecord(manifest) || !isRecord(manifest.routes))
    throw new Error("unexpected manifest shape");
  add(manifest.entry);
  for (const id of routeIds) add(manifest.routes[id]);
  return files;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isModuleEntry(value: unknown): value is { module: string; imports?: string[] } {
  return isRecord(value) && typeof value.module === "string";
}
