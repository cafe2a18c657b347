import type { Plugin } from "vite";

const preloadHelperId = "\0vite/preload-helper.js";

/**
 * Vite wraps every `import()` in a helper (~0.7 kB gzip, on every page) that first loads the
 * chunk's dependencies: <link rel=modulepreload> for scripts and <link rel=stylesheet> for CSS.
 * The client build sets `modulePreload: false`, so the script list is always empty, and no
 * lazily loaded chunk brings CSS (Tailwind's one stylesheet is linked by the root route): the
 * helper would only ever call the import. This plugin makes it do just that, and fails the
 * build if a chunk ever does import CSS, which the real helper would have loaded.
 */
export function noPreloadHelper(): Plugin {
  return {
    name: "portal:no-preload-helper",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.config.consumer === "client",
    load(id) {
      return id === preloadHelperId ? preloadHelperCode : null;
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === "chunk" && (chunk.viteMetadata?.importedCss.size ?? 0) > 0) {
          this.error(
            `${chunk.fileName} imports CSS, which Vite's preload helper would load; ` +
              "remove noPreloadHelper() from vite.config.ts or link the stylesheet from a route",
          );
        }
      }
    },
  };
}

/** What the helper does when there is nothing to preload: run the import. */
export const preloadHelperCode = "export const __vitePreload = (load) => load();";
