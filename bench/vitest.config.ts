import { defineProject } from "vitest/config";

// The bench's own unit tests (its rules, not its measurements: those need `npm run bench`).
export default defineProject({ test: { name: "bench", include: ["src/**/*.test.ts"] } });
