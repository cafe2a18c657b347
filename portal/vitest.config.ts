import { defineProject } from "vitest/config";

// No reactRouter() plugin here: tests import route modules and call loaders/actions directly.
export default defineProject({
  test: {
    name: "portal",
    environment: "jsdom",
    setupFiles: ["./test/setup.ts"],
  },
});
