import { defineProject } from "vitest/config";

// The repository scripts' own tests (run-together.ts and the like).
export default defineProject({ test: { name: "scripts", include: ["**/*.test.ts"] } });
