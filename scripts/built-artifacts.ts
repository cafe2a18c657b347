import { existsSync } from "node:fs";
import path from "node:path";

// What `npm run start:prod` runs: the files `npm run build` made, never a build of its own (a
// production install has no TypeScript compiler or Vite). Missing files stop the start with the
// command that makes them.

/** Per service: the entry point (relative to its folder) and the other files it needs. */
const artifacts: Record<string, { entry: string; needs: string[] }> = {
  portal: { entry: "dist/server.js", needs: ["build/server/index.js"] },
  "identity-server": { entry: "dist/main.js", needs: [] },
};

/** The built entry point of `name` (relative to its folder), or an error naming `npm run build`. */
export function builtEntry(root: string, name: string): string {
  const artifact = artifacts[name];
  if (!artifact) throw new Error(`no built artifact for ${name}`);
  const missing = [artifact.entry, ...artifact.needs].filter(
    (file) => !existsSync(path.join(root, name, file)),
  );
  if (missing.length > 0) {
    throw new Error(
      `${name}/${missing.join(`, ${name}/`)} missing: run npm run build (with the dev dependencies) before npm run start:prod`,
    );
  }
  return artifact.entry;
}
