import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { noPreloadHelper } from "./vite-plugins/no-preload-helper.ts";
import { reactRouterProduction } from "./vite-plugins/react-router-production.ts";

// Only `react-router dev` uses this proxy; production serves /api/kratos from server.ts.
const identityPublicUrl = process.env.KRATOS_PUBLIC_URL ?? "http://127.0.0.1:4433";

export default defineConfig({
  plugins: [reactRouterProduction(), noPreloadHelper(), tailwindcss(), reactRouter()],
  environments: {
    // React and React Router in one chunk rather than four (entry, router, react-dom,
    // jsx-runtime): every page loads them all, and one gzip stream is ~1.8 kB smaller.
    // Only these packages: sonner, react-idle-timer and the phone widget stay lazy.
    client: {
      build: {
        // No <link rel=modulepreload> for the dependencies of lazily loaded chunks: those are
        // mostly loaded already (vendor, shared), and the helper doing it costs every page
        // ~0.7 kB gzip (vite-plugins/no-preload-helper.ts).
        modulePreload: false,
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: "vendor",
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
                },
                // The layout's and the flows' modules that /en/login renders: one chunk, not
                // fifteen (the root's header, footer, theme and language parts joined it:
                // 119,979 -> 119,477 B gzip for /en/login's scripts, one gzip stream). A module several route chunks share otherwise gets a chunk of its own
                // (each one more request, and ~0.1 kB gzip of imports and exports).
                {
                  name: "shared",
                  test: /app[\\/](ui[\\/](card|buttons|toasts|spinner|alert|checkbox|notice|page-title|text-link|app-shell|site-header|site-footer|theme-toggle|language-selector|spinner-overlay|use-idle|route-focus)\.tsx?|theme[\\/][a-z-]+\.tsx?|i18n[\\/](translator-context|locales|page-catalogue|translator|read-page-strings)\.tsx?|routes[\\/](notice-query|nodna|flow-notice|login[\\/](second-factor-params|oauth2-marker-key))\.tsx?|flows[\\/](node-filters|node-guards|messages|field-messages|use-hydrated|node-field|error-summary|node-button|node-checkbox|node-content|flow-node|flow-form|flow-messages|code-errors|action-answer|notice-query)\.tsx?)$/,
                },
                // The header's sign-out form (loaded while a session exists) stays a chunk of its
                // own; the settings group below would otherwise take it in with the route.
                { name: "sign-out-form", test: /app[\\/]ui[\\/]sign-out-form\.tsx$/ },
                // The settings page's outline (its cards' code loads beside the hydration,
                // routes/settings/cards/lazy-card.tsx): one chunk with the route, not three.
                {
                  name: "settings",
                  test: /app[\\/]routes[\\/]settings[\\/](route\.tsx|cards[\\/](index|lazy-card|card-shows)\.tsx?|devices[\\/]trusted-devices-node\.ts)$/,
                },
              ],
            },
          },
        },
      },
    },
  },
  server: {
    proxy: {
      "/api/kratos": {
        target: identityPublicUrl,
        changeOrigin: true,
        rewrite: (path) => path.replace(/^\/api\/kratos/, ""),
      },
    },
  },
});
