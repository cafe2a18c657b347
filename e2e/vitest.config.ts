import { defineProject } from "vitest/config";

// The e2e helpers' own unit tests (*.test.ts); the browser tests (*.spec.ts) are Playwright's.
export default defineProject({
  test: { name: "e2e", include: ["**/*.test.ts"], exclude: ["node_modules/**", "test-results/**"] },
});
