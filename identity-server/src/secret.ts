import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The configured secret, or one generated on first start and kept in the data dir (mode 0600). */
export function loadOrCreateSecret(dataDir: string, configured: string | undefined): string {
  if (configured) return configured;
  const file = path.join(dataDir, "secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    // "wx" fails if another process created it meanwhile; then read theirs.
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      return readFileSync(file, "utf8").trim();
    }
  }
}
