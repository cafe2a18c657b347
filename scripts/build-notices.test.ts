import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { envFileNotice, isKnownNotice } from "./build-notices.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const notices = new URL("./build-notices.ts", import.meta.url).href;

/** What Vite prints when a config is resolved with `envFile: false`, as @react-router/dev does. */
function resolveWithEnvFileFalse(filtered: boolean): string {
  const code = `
    ${filtered ? `(await import(${JSON.stringify(notices)})).dropKnownNotices();` : ""}
    const vite = await import("vite");
    await vite.resolveConfig({ configFile: false, envFile: false, root: ${JSON.stringify(root)} }, "build");
    console.warn("another warning");
  `;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "1" },
  });
  expect(run.status, run.stderr).toBe(0);
  return `${run.stdout}${run.stderr}`;
}

describe("the known build notice", () => {
  it("is still printed by Vite for React Router's envFile: false (else drop the filter)", () => {
    expect(resolveWithEnvFileFalse(false)).toContain(envFileNotice);
  }, 60_000);

  it("is left out of the build's console, and only it", () => {
    const output = resolveWithEnvFileFalse(true);
    expect(output).not.toMatch(/deprecat/i);
    expect(output).toContain("another warning");
  }, 60_000);

  it("is recognised coloured and repeated, other warnings are not", () => {
    expect(isKnownNotice([`\u001b[33m${envFileNotice}\u001b[39m`])).toBe(true);
    expect(isKnownNotice([envFileNotice, "\u001b[33m(x2)\u001b[39m"])).toBe(true);
    expect(isKnownNotice(["The `foo` option is deprecated."])).toBe(false);
    expect(isKnownNotice([{ message: envFileNotice }])).toBe(false);
  });
});
