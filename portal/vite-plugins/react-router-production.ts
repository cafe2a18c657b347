import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Plugin } from "vite";

/**
 * React Router's package exports point at its development build only. Its production build is
 * the same code with ENABLE_DEV_WARNINGS off, so the minifier drops the warnings (~0.7 kB gzip
 * of DESIGN §6's budget). The browser gets that one; the server keeps what the package exports,
 * since @react-router/node imports that copy too.
 */
export function reactRouterProduction(): Plugin {
  const packageJson = createRequire(import.meta.url).resolve("react-router/package.json");
  const production = join(dirname(packageJson), "dist", "production");
  return {
    name: "portal:react-router-production",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.config.consumer === "client",
    resolveId(source) {
      const file = productionFiles[source];
      return file ? join(production, file) : null;
    },
    transform(code, id) {
      return id.startsWith(production) ? withoutDisplayNames(code) : null;
    },
  };
}

/** The entry points the portal's browser code imports, by specifier. */
export const productionFiles: Record<string, string> = {
  "react-router": "index.mjs",
  "react-router/dom": "dom-export.mjs",
};

/**
 * Lets the bundler drop the components the portal never uses (NavLink and what only it needs):
 * top-level `Component.displayName = "…";` lines go (they only name components in React
 * DevTools, and as property writes they count as side effects), and top-level
 * `React.forwardRef(…)`, `React.memo(…)` and `React.createContext(…)` calls are marked pure
 * (they only build an object).
 */
export function withoutDisplayNames(code: string): string {
  return code
    .replace(/^[A-Za-z_$][\w$]*\.displayName = "[^"\n]*";\n/gm, "")
    .replace(
      /^(var [A-Za-z_$][\w$]* = )(React\d*\.(?:forwardRef|memo|createContext)\()/gm,
      "$1/* @__PURE__ */ $2",
    );
}
