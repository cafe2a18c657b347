import { defineConfig } from "vitest/config";

// `npm run test:soak`: the long hardening runs (*.soak.test.ts), kept out of `npm test`.
export default defineConfig({
  test: {
    name: "soak",
    environment: "node",
    include: ["identity-server/src/**/*.soak.test.ts"],
    testTimeout: 900_000,
    hookTimeout: 60_000,
  },
});
