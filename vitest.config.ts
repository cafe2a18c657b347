import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["portal", "identity-server", "client", "demo-portal", "e2e", "scripts"],
  },
});
