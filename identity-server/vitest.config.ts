import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "identity-server",
    environment: "node",
    include: ["src/**/*.test.ts"],
    testTimeout: 20_000,
  },
});
