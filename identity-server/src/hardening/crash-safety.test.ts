import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { crashRound, killChildren } from "./crash-safety-run.ts";

// kill -9 in the middle of 100 concurrent registrations and logins, then a restart on the same
// data dir (crash-safety-run.ts has the round and its checks; the soak run repeats it).

const dataDir = mkdtempSync(path.join(tmpdir(), "identity-crash-safety-"));
afterAll(() => {
  killChildren();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("crash safety", () => {
  it(
    "keeps every acknowledged registration and session across a kill -9, with nothing half-written",
    { timeout: 120_000 },
    async () => {
      const report = await crashRound(dataDir, { registrations: 60, logins: 40 });
      expect(report.identities + report.sessions).toBeGreaterThan(0);
    },
  );
});
