import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Every environment variable a workspace reads at start-up has a row in a README configuration
// table (`| \`NAME\` | default | meaning |`), and every such row names a variable something reads.
//
// The variables are found in the source text, not by importing the config modules: those belong to
// four workspaces with their own tsconfig and dependencies. Two kinds of read are collected:
// - the keys of the zod schemas that validate the environment (the config modules below): an
//   upper-case key opening a line, `  IDENTITY_PUBLIC_PORT: port.default(4433),`;
// - any `env.NAME` / `process.env.NAME` / `env["NAME"]` in the workspaces' non-test sources
//   (scripts/start-all.ts and scripts/console-format.ts read the environment so).

const root = fileURLToPath(new URL("..", import.meta.url));

/** The modules whose zod schemas are the environment each server validates at start-up. */
const configModules = [
  "identity-server/src/config",
  "identity-server/src/oauth2/oauth2-config.ts",
  "portal/app/config.server.ts",
  "demo-portal/src/config.ts",
];

/** Everything that runs at start-up: the servers' sources and the start-up scripts. */
const sourceTrees = [
  "identity-server/src",
  "portal/app",
  "portal/server.ts",
  "demo-portal/src",
  "client/src",
  "scripts",
];

/** The platform's variables, which the README does not describe as ours (npm sets INIT_CWD). */
const platformVariables = new Set(["NODE_ENV", "PATH", "INIT_CWD"]);

const isSource = (file: string) =>
  /\.(ts|tsx|js|mjs)$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.includes("test-support");

function sourceFiles(relative: string): string[] {
  const full = path.join(root, relative);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, encoding: "utf8" })
    .filter((entry) => isSource(entry) && !entry.split(path.sep).includes("node_modules"))
    .map((entry) => path.join(full, entry));
}

function schemaKeys(text: string): string[] {
  return [...text.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1] ?? "");
}

/** `import.meta.env.SSR` and its kind are Vite's build-time constants, not the environment. */
function environmentReads(text: string): string[] {
  const pattern = /(?<!\bmeta\.)\benv(?:\.([A-Z][A-Z0-9_]+)\b|\[["']([A-Z][A-Z0-9_]+)["']\])/g;
  return [...text.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? "");
}

function variablesRead(): Set<string> {
  const names = new Set<string>();
  for (const file of configModules.flatMap(sourceFiles)) {
    for (const name of schemaKeys(readFileSync(file, "utf8"))) names.add(name);
  }
  for (const file of sourceTrees.flatMap(sourceFiles)) {
    for (const name of environmentReads(readFileSync(file, "utf8"))) names.add(name);
  }
  for (const name of platformVariables) names.delete(name);
  return names;
}

/** The names opening README table rows; `IDENTITY_OAUTH2_*_PORT` stands for several. */
function readmeRows(): string[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  return [...readme.matchAll(/^\| `([A-Z][A-Z0-9_*]+)`/gm)].map((match) => match[1] ?? "");
}

const matches = (row: string, name: string) =>
  new RegExp(`^${row.replaceAll("*", "[A-Z0-9_]+")}$`).test(name);

describe("the README's configuration tables", () => {
  const read = variablesRead();
  const rows = readmeRows();

  it("find the variables (the scan still sees the config modules)", () => {
    for (const name of ["IDENTITY_PUBLIC_PORT", "IDENTITY_OAUTH2_ISSUER", "PORTAL_PORT"]) {
      expect(read).toContain(name);
    }
    for (const name of ["DEMO_OIDC_ISSUER", "EMBEDDED_IDENTITY", "LOG_FORMAT"]) {
      expect(read).toContain(name);
    }
  });

  it("have a row for every variable read at start-up", () => {
    const exact = new Set(rows);
    expect([...read].filter((name) => !exact.has(name)).sort()).toEqual([]);
  });

  it("name only variables something reads", () => {
    const stale = rows.filter((row) => ![...read].some((name) => matches(row, name)));
    expect(stale).toEqual([]);
  });
});
