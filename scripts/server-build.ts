// Builds a server's plain-JavaScript copy: `<folder>/dist` mirrors `<folder>/src` (so paths relative
// to import.meta.url still resolve) with the types stripped by `tsc -p <folder>/tsconfig.build.json`
// (no type check; `npm run typecheck` does that); for the portal, `portal/dist` holds server.ts and
// the app modules it imports (tsconfig.server.json). Running the server from dist spares it Node's
// type stripping, a WebAssembly module whose memory (tens of MB) stays for the process's life.
// Tests and `npm run dev`-style work keep running the sources.
//
//   node scripts/server-build.ts identity-server   builds when a source is newer than the last build
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  rmdirSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

interface ServerBuild {
  /** The entry point's name without extension: `dist/<entry>.js`. */
  entry: string;
  /** The tsconfig that emits dist. */
  tsconfig: string;
  /** Files and folders (relative to the server's folder) whose change calls for a new build. */
  sources: string[];
}

const builds: Record<string, ServerBuild> = {
  "identity-server": { entry: "main", tsconfig: "tsconfig.build.json", sources: ["src"] },
  portal: { entry: "server", tsconfig: "tsconfig.server.json", sources: ["server.ts", "app"] },
};

/** Newest modification time (ms) of the files a build reads. */
function newestSource(folder: string, build: ServerBuild): number {
  let newest = 0;
  const consider = (file: string) => {
    if (existsSync(file)) newest = Math.max(newest, statSync(file).mtimeMs);
  };
  const isSource = (name: string) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name);
  for (const source of build.sources) {
    const at = path.join(folder, source);
    if (!existsSync(at)) continue;
    if (!statSync(at).isDirectory()) consider(at);
    else
      for (const entry of readdirSync(at, { recursive: true }))
        if (isSource(String(entry))) consider(path.join(at, String(entry)));
  }
  for (const file of [build.tsconfig, "tsconfig.json", "package.json"])
    consider(path.join(folder, file));
  consider(path.join(root, "tsconfig.base.json"));
  return newest;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Builds `<root>/<name>/dist` (name: identity-server or portal) unless it is newer than every
 * source; returns the path of its entry point relative to the folder (`dist/main.js`). Concurrent
 * callers (the e2e suite starts two stacks at once) take turns through a lock directory in dist.
 */
export async function buildServer(name: string): Promise<string> {
  const build = builds[name];
  if (!build) throw new Error(`no server build for ${name}`);
  const folder = path.join(root, name);
  const dist = path.join(folder, "dist");
  const stamp = path.join(dist, ".built");
  const lock = path.join(dist, ".building");
  const fresh = () => existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource(folder, build);
  const result = `dist/${build.entry}.js`;
  if (fresh()) return result;
  mkdirSync(dist, { recursive: true });
  for (const deadline = Date.now() + 120_000; ;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // A build that crashed leaves its lock behind; two minutes is far longer than any build.
      if (Date.now() > deadline || Date.now() - statSync(lock).mtimeMs > 120_000) {
        rmdirSync(lock);
        continue;
      }
      await sleep(200);
    }
  }
  try {
    if (fresh()) return result;
    const startedAt = new Date();
    const run = spawnSync(process.execPath, [tsc, "-p", path.join(folder, build.tsconfig)], {
      stdio: "inherit",
    });
    if (run.status !== 0) throw new Error(`building ${folder} failed (tsc exited ${run.status})`);
    // Stamped with the build's start: a source saved during the build triggers the next one.
    writeFileSync(stamp, "");
    utimesSync(stamp, startedAt, startedAt);
    return result;
  } finally {
    rmdirSync(lock);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const name = process.argv[2];
  if (!name || !(name in builds)) {
    console.error(`usage: node scripts/server-build.ts ${Object.keys(builds).join("|")}`);
    process.exit(2);
  }
  await buildServer(name);
}
