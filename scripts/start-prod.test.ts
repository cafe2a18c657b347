import { execFile } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { builtEntry } from "./built-artifacts.ts";

// `npm run build` once, then `npm run start:prod` runs what it built: no build step at start (a
// production install, npm ci --omit=dev, has neither the TypeScript compiler nor Vite).

const root = fileURLToPath(new URL("..", import.meta.url));
const scripts = (
  JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  }
).scripts;
const scratch = mkdtempSync(path.join(tmpdir(), "start-prod-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("npm run start:prod", () => {
  it("runs start-all in production mode and builds nothing", () => {
    const commands = (scripts["start:prod"] ?? "").split("&&").map((part) => part.trim());
    expect(commands).toEqual(["node scripts/assert-node.mjs", "node scripts/start-all.ts --prod"]);
    expect(commands.filter((command) => /build|tsc|vite/.test(command))).toEqual([]);
  });

  it("has npm run build make everything it runs", () => {
    expect(scripts.build).toContain("npm run build -w portal");
    expect(scripts.build).toContain("node scripts/server-build.ts portal");
    expect(scripts.build).toContain("node scripts/server-build.ts identity-server");
  });

  it("asks for Node 24", () => {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
      engines: { node: string };
    };
    expect(pkg.engines.node).toBe(">=24 <25");
  });
});

describe("the built artifacts", () => {
  it("name what is missing and the command that makes it", () => {
    const empty = path.join(scratch, "empty");
    expect(() => builtEntry(empty, "portal")).toThrow(
      "portal/dist/server.js, portal/build/server/index.js missing: run npm run build",
    );
    expect(() => builtEntry(empty, "identity-server")).toThrow(
      "identity-server/dist/main.js missing: run npm run build",
    );
  });

  it("are the entry points once built", () => {
    const built = path.join(scratch, "built");
    for (const file of ["portal/dist/server.js", "portal/build/server/index.js"]) {
      mkdirSync(path.dirname(path.join(built, file)), { recursive: true });
      writeFileSync(path.join(built, file), "");
    }
    expect(builtEntry(built, "portal")).toBe("dist/server.js");
  });
});

describe("start-all.ts --prod without a build", () => {
  it("stops with the command to run, without building or loading the build tools", async () => {
    // A copy of the start-up scripts without server-build.ts (the TypeScript build): the start
    // must not need it.
    const copy = path.join(scratch, "copy");
    mkdirSync(path.join(copy, "scripts"), { recursive: true });
    for (const file of [
      "start-all.ts",
      "built-artifacts.ts",
      "console-format.ts",
      "memory-settings.ts",
    ]) {
      copyFileSync(path.join(root, "scripts", file), path.join(copy, "scripts", file));
    }
    symlinkSync(path.join(root, "node_modules"), path.join(copy, "node_modules"));
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [path.join(copy, "scripts", "start-all.ts"), "--prod"],
        { env: { PATH: process.env.PATH }, timeout: 60_000 },
        (error, _stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stderr }),
      );
    });
    expect(result.stderr).toContain(
      "portal/dist/server.js, portal/build/server/index.js missing: run npm run build",
    );
    expect(result.code).toBe(1);
    expect(existsSync(path.join(copy, "portal"))).toBe(false);
  });
});
