import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
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
    // Written whole under another name, then linked into place: the link fails if another process
    // starting at once got there first (then theirs is read), and no one ever reads a half-written file.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, secret, { mode: 0o600 });
    try {
      linkSync(temporary, file);
      return secret;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      return readFileSync(file, "utf8").trim();
    } finally {
      unlinkSync(temporary);
    }
  }
}
