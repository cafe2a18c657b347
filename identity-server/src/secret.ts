import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The server secrets, newest first: the first signs cookies, HMACs new codes and seals keys; all of
 * them verify and open what older ones made (see config/secrets-config.ts).
 */
export type Secrets = readonly [string, ...string[]];

/** The configured secrets, or one generated on first start and kept in the data dir (mode 0600). */
export function loadOrCreateSecrets(
  dataDir: string,
  configured: readonly string[] | undefined,
): Secrets {
  const [first, ...rest] = configured ?? [];
  if (first !== undefined) return [first, ...rest];
  return [loadOrCreateGenerated(dataDir)];
}

function loadOrCreateGenerated(dataDir: string): string {
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
