import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// Only `react-router dev` uses this proxy; production serves /api/kratos from server.ts.
const identityPublicUrl = process.env.KRATOS_PUBLIC_URL ?? "http://127.0.0.1:4433";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
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
