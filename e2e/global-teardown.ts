import { rmSync } from "node:fs";

/** Removes the stacks' databases (playwright.config.ts), so that runs leave nothing behind. */
export default function globalTeardown(): void {
  const dataRoot = process.env.E2E_DATA_ROOT;
  if (dataRoot) rmSync(dataRoot, { recursive: true, force: true });
}
