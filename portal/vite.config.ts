import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// Only `react-router dev` uses this proxy; production serves /api/kratos from server.ts.
const identityPublicUrl = process.env.KRATOS_PUBLIC_URL ?? "http://127.0.0.1:4433";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  environments: {
    // React and React Router in one chunk rather than four (entry, router, react-dom,
    // jsx-runtime): every page loads them all, and one gzip stream is ~1.8 kB smaller.
    // Only these packages: sonner, react-idle-timer and the phone widget stay lazy.
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  name: "vendor",
                  test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
                },
                // The layout's and the flows' modules that /en/login renders: one chunk, not five.
                {
                  name: "shared",
                  test: /app[\\/](ui[\\/](card|buttons|toasts|spinner|alert|checkbox|notice)\.tsx?|i18n[\\/]translator-context\.tsx|routes[\\/]notice-query\.ts|flows[\\/](node-guards|messages|field-messages|use-hydrated|node-field|error-summary|node-button|node-checkbox|node-content|flow-node|flow-form|flow-messages)\.tsx?)$/,
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
