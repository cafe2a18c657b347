import { configDefaults, defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "identity-server",
    environment: "node",
    // The long hardening runs belong to `npm run test:soak` (vitest.soak.config.ts).
    exclude: [...configDefaults.exclude, "src/**/*.soak.test.ts"],
    testTimeout: 20_000,
  },
});
