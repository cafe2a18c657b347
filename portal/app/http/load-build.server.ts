import type { ServerBuild } from "react-router";

// The React Router build the portal's server serves, checked as it is loaded (the server may run
// as server.ts or as the built dist/server.js; both find the build in the portal's folder).

/** The server build in `build/server/` of the portal's folder. */
export async function loadBuild(portalDir: URL): Promise<ServerBuild> {
  const buildModule: unknown = await import(new URL("build/server/index.js", portalDir).href);
  if (!isServerBuild(buildModule)) {
    throw new Error(
      "build/server/index.js is not a React Router build; run `npm run build -w portal`",
    );
  }
  return buildModule;
}

function isServerBuild(value: unknown): value is ServerBuild {
  return typeof value === "object" && value !== null && "routes" in value && "entry" in value;
}

type LoadContextFactory<Info, Context> = (info: Info) => Context;

/** entry.server re-exports the context factory so both sides share one context key. */
export function loadContextFactory<Info, Context>(
  serverBuild: ServerBuild,
): LoadContextFactory<Info, Context> {
  const entryModule: object = serverBuild.entry.module;
  if (!hasLoadContextFactory<Info, Context>(entryModule)) {
    throw new Error("entry.server does not export createLoadContext");
  }
  return entryModule.createLoadContext;
}

function hasLoadContextFactory<Info, Context>(
  value: object,
): value is { createLoadContext: LoadContextFactory<Info, Context> } {
  return "createLoadContext" in value && typeof value.createLoadContext === "function";
}
