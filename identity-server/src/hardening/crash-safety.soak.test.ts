import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { crashRound, killChildren } from "./crash-safety-run.ts";

// The soak variant of crash-safety.test.ts: HARDENING_SOAK_CRASHES rounds (default 5) of kill -9
// during 200 concurrent registrations and logins, all on one data dir, so every restart starts
// from a file that was itself killed mid-write.

const rounds = Number(process.env.HARDENING_SOAK_CRASHES ?? 5);
const dataDir = mkdtempSync(path.join(tmpdir(), "identity-crash-soak-"));
afterAll(() => {
  killChildren();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("soak: crash safety", () => {
  it(`survives ${rounds} kill -9 rounds on one data dir`, async () => {
    let acknowledged = 0;
    for (let round = 0; round < rounds; round += 1) {
      const report = await crashRound(dataDir, { registrations: 120, logins: 80 });
      acknowledged += report.identities + report.sessions;
    }
    console.log(`crash soak: ${rounds} rounds, ${acknowledged} acknowledged answers checked`);
    expect(acknowledged).toBeGreaterThan(0);
  });
});
